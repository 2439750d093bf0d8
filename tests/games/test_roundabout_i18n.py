"""Roundabout speaks every language from its own folder's catalogue
(games/roundabout/locale): the rules page, a match page's board and controls and
the move list's lines read in German and Arabic, while the board keeps its geometry
(no number a machine reads is localised) and English stays as it was (the goldens,
tests/games/frames/golden, and the English texts of test_roundabout_live.py)."""

import gettext
import json
import re
from pathlib import Path
from types import SimpleNamespace

import polib
import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from games.engine import get_rules
from games.frames.render import seat_frame
from games.record import describe
from games.roundabout.svg import board_context
from tests.engine.roundabout_helpers import position, run
from tests.factories import make_match, make_user

RA = get_rules("roundabout")
LOCALE = Path(__file__).resolve().parents[2] / "games" / "roundabout" / "locale"
LANGUAGES = ("hi", "es", "de", "ar")
#: Attributes that carry words for people (translated), not values for code.
WORDS = frozenset({"data-help", "data-confirm"})
#: Attributes whose values a machine reads: the drawing's geometry, the parts' names, the scripts' data.
MACHINE = re.compile(
    r'\b(viewBox|x|y|x1|y1|x2|y2|cx|cy|r|d|transform|href|id|class|data-[a-z-]+|value|name)="([^"]*)"')


@pytest.fixture(autouse=True)
def _english_after():
    """A request through the test client leaves its language active in this thread
    (LocaleMiddleware activates it and nothing deactivates it): English again after
    each test, for this one's English baselines and the tests after it."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_game_folder_holds_its_own_complete_catalogue(lang):
    folder = LOCALE / lang / "LC_MESSAGES"
    po = polib.pofile(str(folder / "django.po"))
    assert po.percent_translated() == 100 and not po.fuzzy_entries() and len(po) > 200
    assert not po.metadata_is_fuzzy and po.metadata["Language"] == lang
    with open(folder / "django.mo", "rb") as f:
        mo = gettext.GNUTranslations(f)
    assert mo.gettext("Golden Rule") == po.find("Golden Rule").msgstr != "Golden Rule"


def _record():
    start = RA.new_match(3)
    plies = [("chance", None, "d6"), ("chance", None, "d1"), ("chance", None, "d2"),
             ("seat", 0, "roll"), ("chance", None, "d1-2"), ("seat", 0, "offer 2 1"),
             ("server", 2, "decline"), ("seat", 1, "accept"), ("seat", 1, "0r1")]
    moves = [SimpleNamespace(ply=i, actor=a, seat=s, notation=n, version_after=i)
             for i, (a, s, n) in enumerate(plies)]
    return [line.text for line in describe("roundabout", moves, {0: "ada", 1: "Computer", 2: "bob"}, start)]


@pytest.mark.parametrize(("lang", "words"), [
    ("de", ["Auswürfeln: ada würfelte eine 6.", "ada würfelte 1 und 2.",
            "ada bot den Wurf bob, dann Computer an.", "bob lehnte den Wurf ab (Zeit abgelaufen).",
            "Computer zog Pfeil 0 um 1 auf dem Ring weiter."]),
    ("ar", ["رمية البدء: رمى ada \u200f6.", "عرض ada الرمية على bob، ثم Computer.", "قبل Computer الرمية."]),
])
def test_the_move_list_lines_are_worded_in_the_language_active_when_made(lang, words):
    english = _record()
    with translation.override(lang):
        lines = _record()
    assert len(lines) == len(english) and all(a != b for a, b in zip(lines, english, strict=True))
    assert all(w in lines for w in words), lines
    assert _record() == english, "the words follow the active language, nothing is kept"


@pytest.mark.parametrize(("lang", "texts"), [
    ("de", ["Roundabout: so wird gespielt", "Die Goldene Regel (3&ndash;4 Spieler)", "Sprungpasch",
            "ROUNDABOUT von Otero Games", "es gibt 80 solcher Felder",
            "Roundabout gegen den Computer spielen"]),
    ("ar", ["Roundabout: طريقة اللعب", "القاعدة الذهبية", "دبل القفز", "ROUNDABOUT من Otero Games",
            "هناك 80 خانة"]),
    # Its own words, not another catalogue's same msgid (Ludo's "Captures" is "Comer").
    ("es", ['<h2 id="captures">Capturas</h2>', '<a href="#captures">Capturas</a>', "Dobles de salto"]),
])
def test_the_rules_page_reads_in_the_visitors_language_with_its_facts_exact(client, lang, texts):
    body = client.get(reverse("rules", args=["roundabout"]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert all(t in body for t in texts), [t for t in texts if t not in body]
    for english in ("Send your darts all the way round", "The complete rules", "Golden Rule", "Going home"):
        assert english not in body
    assert f'{reverse("rules", args=["ludo"])}#fairness' in body and "<code>42</code>" in body


def _move_state():
    darts = {0: {0: (3, 5, "cw"), 1: (3, 6, "cw"), 2: (2, 9, "ccw")}, 1: {0: (4, 12, "cw"), 1: (2, 5, "cw")}}
    return RA.dump(run(position(2, darts), "roll, d3-4"))


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "texts"), [
    ("de", ["Würfel: <strong>3</strong> und <strong>4</strong>", "Einen Pfeil ziehen", "Rot ist am Zug.",
            "Rot: 3 Pfeile auf dem Spielbrett", "Pfeil 0: 3 auf dem Ring bis Ring 3, Steg 8",
            "Wähle einen Pfeil auf dem Spielbrett"]),
    ("ar", ["النرد: <strong>3</strong> و<strong>4</strong>", "حرّك سهمًا", "الدور على الأحمر.",
            "السهم 0: 3 حول الحلقة حتى الحلقة 3، العارضة 8"]),
])
def test_a_match_page_draws_the_board_and_the_controls_in_the_seats_language(client, lang, texts):
    user = make_user()
    match = make_match("roundabout", ("human", "human"), users=[user], state=_move_state())
    client.force_login(user)
    page = client.get(reverse("match", args=[match.public_id]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert all(t in page for t in texts), [t for t in texts if t not in page]
    for english in ("Move a dart", "Red to play.", "darts on the board", "around the ring to"):
        assert english not in page


def _machine_values(html: str) -> list[tuple[str, str]]:
    values = MACHINE.findall(html)
    assert len(values) > 50
    return values


def _choices(html: str) -> list[dict]:
    raw = re.search(r'<div id="board-choices"[^>]*>(.*?)</div>', html).group(1)
    data = json.loads(raw.replace("&quot;", '"').replace("&#x27;", "'").replace("&amp;", "&"))
    return [{k: v for k, v in c.items() if k not in ("l", "kl")} for c in data["choices"] + data["table"]]


@pytest.mark.django_db
def test_the_board_and_the_board_choices_keep_their_geometry_in_every_language():
    """Coordinates, sizes, transforms, part names and the scripts' data are the same in
    every language (docs: "the localised numbers trap"); only the words differ."""
    user = make_user()
    match = make_match("roundabout", ("human", "human"), users=[user], state=_move_state())
    seat = match.seats.get(index=0)
    board = board_context(RA.view(RA.load(match.state), None))
    english_board = render_to_string("games/roundabout/board.html", {"board": board, "last_move": None})
    english_frame = seat_frame(match, seat)
    for lang in ("de", "ar", "es", "hi"):
        with translation.override(lang):
            localised = board_context(RA.view(RA.load(match.state), None))
            html = render_to_string("games/roundabout/board.html", {"board": localised, "last_move": None})
            frame = seat_frame(match, seat)
        assert _machine_values(html) == _machine_values(english_board)
        assert localised["title"] != board["title"]
        assert [(k, v) for k, v in _machine_values(frame) if k not in WORDS] == [
            (k, v) for k, v in _machine_values(english_frame) if k not in WORDS]
        assert _choices(frame) == _choices(english_frame) and _choices(frame)


def test_the_board_keys_are_the_shared_keys_in_the_games_words_and_language():
    from games import sites

    keys = sites.get_site("roundabout").board_keys
    assert [(str(k), str(w)) for k, w in keys][:3] == [
        ("R", "roll the dice"), ("N or →", "next dart"), ("P or ←", "previous dart")]
    assert [str(k) for k, _ in keys] == [k for k, _ in sites.dice_board_keys()]
    with translation.override("de"):
        assert [(str(k), str(w)) for k, w in keys][1] == ("N oder →", "nächster Pfeil")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_pages_facts_stay_exact_in_every_language(lang):
    """Every number of the rules page's texts (rings, bars, dice, seconds, the test seed's
    outcome) is in its translation, in Western digits, and so are the credit's names."""
    po = polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / "django.po"))
    rules = [e for e in po if any(path.endswith("rules.html") for path, _ in e.occurrences)]
    assert len(rules) > 80

    def numbers(text):
        return sorted(re.findall(r"\d+", re.sub(r"%\(\w+\)s", "", text)))

    wrong = [e.msgid for e in rules if numbers(e.msgid) != numbers(e.msgstr)]
    assert not wrong, wrong
    credit = next(e for e in rules if e.msgid.startswith("ROUNDABOUT by Otero Games"))
    assert "ROUNDABOUT" in credit.msgstr and "Otero Games" in credit.msgstr and "Parlour" in credit.msgstr
