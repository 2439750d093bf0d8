"""Ludo and Rondo speak the site's languages from their own folders' catalogues
(games/<game>/locale, docs/i18n.md): the match page (board words, a seat's
controls), the rules page and the move list's lines, in German and Arabic;
the board's geometry and the rules' facts stay exactly as in English."""

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from games import record
from games.engine import get_rules
from games.frames import render
from games.models import Match
from tests.factories import make_match, make_user

RULES = {kind: get_rules(kind) for kind in ("ludo", "rondo")}
GAMES_DIR = Path(__file__).resolve().parents[2] / "games"
LANGUAGES = ("hi", "es", "de", "ar")

#: Words of each game, in English and as German and Arabic players read them.
WORDS = {
    "ludo": {"board": ("Ludo board", "Ludo-Spielbrett", "لوحة لودو"),
             "rules": ("Ludo: how to play", "Ludo: so wird gespielt", "لودو: طريقة اللعب", "लूडो: कैसे खेलें",
                       "Ludo: cómo se juega")},
    "rondo": {"board": ("Centre: a chain may start next to it", "Mitte: eine Kette darf daneben beginnen",
                        "المركز: يمكن أن تبدأ السلسلة بجواره"),
              "rules": ("Rondo: how to play", "Rondo: so wird gespielt", "Rondo: طريقة اللعب", "Rondo: कैसे खेलें",
                        "Rondo: cómo se juega"),
              "rack": ("Your rack", "Dein Bänkchen", "حاملك")},
}
#: The rules pages' facts, the same in every language (credits, numbers, codes).
FACTS = {
    "ludo": ("Mohammad Asif", "OpenStreetMap",
             "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
             "6, 6, 6, 2, 1, 1, 3, 6, 2, 3", "<code>s1 roll d6 p0 roll d4 p0 roll d2</code>"),
    "rondo": ("RONDO", "Reiner Knizia", "Schmidt Spiele", "(2012)", "Eckhard", "Freytag", "Thorsten Gimmler",
              "<code>place I03 down red</code>", "HMAC-SHA256"),
}
#: The attributes a browser reads as numbers: never localised ("12,5").
_GEOMETRY = re.compile(r'\s(?:x|y|x1|y1|x2|y2|cx|cy|r|rx|width|height|transform|points|viewBox|d)="[^"]*"')


@pytest.fixture(autouse=True)
def _english_after():
    """A request leaves its language active in the thread (LocaleMiddleware does
    not reset it): the tests after these render in the default language again."""
    yield
    translation.deactivate()


def _speaking(client: Client, user, lang: str) -> Client:
    """``client`` asking for ``lang`` every way the site reads it (account, cookie, browser)."""
    type(user).objects.filter(pk=user.pk).update(language=lang)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    return client


def _board(page: str) -> str:
    start = page.index('<div id="board"')
    return page[start:page.index("</svg>", start)]


@pytest.mark.parametrize("kind", ["ludo", "rondo"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_game_folder_holds_its_own_complete_catalogue(kind, lang):
    folder = GAMES_DIR / kind / "locale" / lang / "LC_MESSAGES"
    catalogue = polib.pofile(str(folder / "django.po"))
    assert (folder / "django.mo").is_file()
    assert len(catalogue) > 100 and catalogue.percent_translated() == 100
    assert not catalogue.fuzzy_entries() and not catalogue.obsolete_entries()


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["ludo", "rondo"])
@pytest.mark.parametrize("lang, at", [("de", 1), ("ar", 2), ("hi", 3), ("es", 4)])
def test_the_rules_page_is_translated_and_keeps_its_facts(client, kind, lang, at):
    english = Client().get(f"/rules/{kind}/").content.decode()
    page = _speaking(client, make_user(), lang).get(f"/rules/{kind}/").content.decode()
    words = WORDS[kind]
    assert words["rules"][at] in page and words["rules"][0] not in page
    for fact in FACTS[kind]:
        assert fact in english and fact in page, fact
    article = page[page.index("<article"):page.index("</article>")]
    # The "In one screen" pictures: their captions and boards' words too (cached per language).
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", article)
    assert captions and not [c for c in captions if c in english]
    # Every paragraph is translated: none of the English page's sentences is left.
    sentences = re.findall(r"<(?:p|li|dd)>([A-Z][^<]{40,}?\.)", english)
    assert sentences and not [s for s in sentences if s in article]


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["ludo", "rondo"])
@pytest.mark.parametrize("lang, at", [("de", 1), ("ar", 2)])
def test_the_match_page_and_the_seats_controls_are_translated_with_the_same_geometry(kind, lang, at):
    users = [make_user(), make_user()]
    match = make_match(kind=kind, seats=("human", "human"), users=users, public_id=f"lang{kind}{lang}")
    english = Client().get(f"/m/{match.public_id}/").content.decode()
    watcher = _speaking(Client(), make_user(), lang)
    page = watcher.get(f"/m/{match.public_id}/").content.decode()
    assert WORDS[kind]["board"][at] in page and WORDS[kind]["board"][0] not in page
    assert _GEOMETRY.findall(_board(page)) == _GEOMETRY.findall(_board(english))
    m = Match.objects.get(pk=match.pk)
    seat = m.seats.get(index=m.state["turn"])
    with translation.override(lang):
        controls = render.seat_frame(m, seat)
    with translation.override("en"):
        english_controls = render.seat_frame(m, seat)
    if kind == "ludo":
        roll = ("Roll the die", "Würfeln", "ارمِ النرد")
        assert f">{roll[at]}</button>" in controls and f">{roll[0]}</button>" in english_controls
    else:
        assert WORDS[kind]["rack"][at] in controls and "Your rack" not in controls


@pytest.mark.django_db
@pytest.mark.parametrize("kind, english, german, arabic", [
    ("ludo", "Drawn to start: ", "Ausgelost, wer beginnt: ", "وقعت القرعة على من يبدأ: "),
    ("rondo", " was dealt to ", " bekommt ein Plättchen ausgeteilt.", "وُزّعت بلاطة على "),
])
def test_move_list_lines_are_worded_in_the_active_language_from_the_english_record(
        kind, english, german, arabic):
    match = make_match(kind=kind, seats=("human", "human"))
    moves = list(match.moves.order_by("ply"))
    names = {0: "ada (red)", 1: "bo (yellow)"}

    def lines(lang):
        with translation.override(lang):
            before = RULES[kind].load(match.start_state)
            return [line.text for line in record.describe(kind, moves, names, before)]

    assert any(english in text for text in lines("en"))
    assert any(german in text for text in lines("de")) and not any(english in text for text in lines("de"))
    assert any(arabic in text for text in lines("ar"))
    # The record itself stays the engine's notation, whatever the language.
    assert [m.notation for m in match.moves.order_by("ply")] == [m.notation for m in moves]



@pytest.mark.parametrize("kind, players, plies", [("ludo", 4, 400), ("rondo", 3, 120)])
def test_the_translated_move_words_say_in_english_what_the_engine_labels_say(kind, players, plies):
    """The controls word a move in the active language from its dict (the engine's
    labels are English only); in English they are the engine's labels, letter for
    letter, over seeded random play."""
    import random

    from games.ludo.templatetags import ludo_tags
    from games.rondo.templatetags import rondo_tags

    rules, rng = RULES[kind], random.Random(43)
    state = rules.new_match(players)
    checked = 0
    with translation.override("en"):
        for _ in range(plies):
            seat = rules.to_move(state)
            if seat is None:
                break
            if seat >= 0:
                view = rules.view(state, seat)
                if kind == "ludo":
                    colours = [s["colour"] for s in view["seats"]]
                    for m in view["moves"]:
                        assert ludo_tags.move_words(m, colours) == m["label"]
                    for m in ludo_tags._merged(view["moves"]):
                        expected = m["label"]
                        if m.get("count", 1) > 1:
                            expected = expected.replace(f"piece {m['piece']}", "a piece", 1)
                        assert ludo_tags.move_words(m, colours) == expected
                        checked += 1
                else:
                    for m in view["private"]["moves"]:
                        assert rondo_tags.move_words(m, view) == m["label"]
                        checked += 1
            state = rules.play(state, rng.choice(rules.legal_moves(state)))
    assert checked > 100


@pytest.mark.django_db
def test_ludo_piece_choices_are_worded_in_the_seats_language_on_buttons_and_board():
    from tests.factories import ludo_state

    state = ludo_state(2, phase="move", die=6, pieces=[[-1, -1, 20, 20], [-1] * 4], autoplay_forced=False)
    match = make_match(seats=("human", "human"), state=state)
    with translation.override("de"):
        html = render.seat_frame(match, match.seats.get(index=0))
    assert ">Eine Figur herausbringen</button>" in html
    assert ">Eine Figur um 6 vorziehen, auf ein sicheres Feld</button>" in html
    assert '"l":"Eine Figur herausbringen"' in html.replace(": ", ":")
    with translation.override("ar"):
        html = render.seat_frame(match, match.seats.get(index=0))
    assert ">أخرِج قطعة</button>" in html and ">حرّك قطعة بمقدار 6، إلى خانة آمنة</button>" in html
