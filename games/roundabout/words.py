"""Roundabout's words on the site, in the active language: the seat colours, the
board's accessible text, the board's spaces and the legal moves' labels (buttons,
the board's choices, their accessible names).

The engine's ``describe_move`` labels its moves in English for code (the API and
the bots read them: docs/api.md); the pages word the same moves here, from the
facts ``describe_move`` gives (die, direction, spaces, jump, home). The strings are
in the game folder's own catalogue (games/roundabout/locale).

Every move renders the board (once per language present) and the controls of the
seat to move, with dozens of these words: each language's are looked up once per
process (``texts``), not once per dart.
"""

from __future__ import annotations

import functools

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext


def texts() -> dict[str, str]:
    """The words below in the active language (looked up once per language)."""
    return _texts(translation.get_language())


@functools.cache
def _texts(language: str | None) -> dict[str, str]:
    """Called with the active language (the cache's key): its words."""
    return {
        "language": language,
        # Translators: a seat's colour naming the seat in the board's sentences ("Red to play.",
        # "Red: 8 darts on the board"), capitalised as a name (Arabic: with its article).
        "red": pgettext("roundabout seat", "Red"),
        "green": pgettext("roundabout seat", "Green"),
        "yellow": pgettext("roundabout seat", "Yellow"),
        "blue": pgettext("roundabout seat", "Blue"),
        # The board's accessible text.
        "dart cw": _("dart %(dart)s on ring %(ring)s, bar %(bar)s, facing clockwise"),
        "dart ccw": _("dart %(dart)s on ring %(ring)s, bar %(bar)s, facing counter-clockwise"),
        # Translators: this and the next two are added after the words of a dart on the board
        # ("dart 3 on ring 2, bar 5, facing clockwise"), with their own punctuation.
        "captured": _(", captured"),
        "block": _(", in a block"),
        "circuit": _(", circuit made"),
        "left": _("%(colour)s: left the match"),
        # Translators: joins a seat's count and its darts' words, and the seats' lines, in the
        # board's accessible text.
        "sep": _("; "),
        # Translators: ends each seat's line of the board's accessible text, and the whole.
        "stop": _("."),
        "board": _("Roundabout board."),
        "to play": _("%(colour)s to play."),
        # The moves.
        "place": _("ring %(ring)s, bar %(bar)s"),
        "then": _("%(first)s, then %(second)s"),
        "in": _("%(die)s inward to %(place)s"),
        "out": _("%(die)s outward to %(place)s"),
        "ring": _("%(die)s around the ring to %(place)s"),
        # Translators: added after a dart move's words ("5 around the ring to ring 2, bar 10").
        "home": _(", home and off the board"),
        # Translators: added after a dart move's words ("5 around the ring to ring 2, bar 10").
        "jump": _(" (jumping a block)"),
        "on cw": _("on %(place)s, facing clockwise"),
        "on ccw": _("on %(place)s, facing counter-clockwise"),
        "dart at": _("Dart %(dart)s on %(place)s"),
        "dart name": _("Dart %(dart)s"),
        "dart move": _("Dart %(dart)s: %(move)s"),
        "turn ccw": _("Turn dart %(dart)s (%(place)s) to face counter-clockwise"),
        "turn cw": _("Turn dart %(dart)s (%(place)s) to face clockwise"),
        "offer": _("Offer the roll to %(seats)s"),
        "roll": _("Roll the dice"),
        "accept": _("Accept the offered roll"),
        "decline": _("Decline the offered roll"),
        "pass": _("End the turn (pass)"),
    }


def on_setting_changed(setting: str, **kwargs) -> None:
    """Forget the looked-up words when the languages or the catalogues change (tests)."""
    if setting in ("LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS", "INSTALLED_APPS"):
        _texts.cache_clear()
        _dart_label.cache_clear()
        _dart_at.cache_clear()


def colour_word(colour: str, words: dict | None = None) -> str:
    """``colour`` ("red") as a person reads it, in the active language ("Red")."""
    return (words or texts()).get(colour) or colour.capitalize()


def dart_words(d: dict, words: dict) -> str:
    """One dart of a seat's public view in words, for the board's accessible text:
    "dart 3 on ring 2, bar 5, facing clockwise, captured"; ``words``: ``texts()``."""
    text = words["dart cw" if d["facing"] == "cw" else "dart ccw"] % {
        "dart": d["dart"], "ring": d["ring"], "bar": d["bar"]}
    if d["captured"]:
        text += words["captured"]
    if d["block"]:
        text += words["block"]
    if d["circuit"]:
        text += words["circuit"]
    return text


def seat_words(seat: dict, parts: list[str], words: dict) -> str:
    """A seat's line of the board's accessible text (without its full stop):
    "Red: 8 darts on the board, 2 off; dart 0 on ...", ``parts`` its darts' words."""
    name = colour_word(seat["colour"], words)
    if seat["status"] == "left":
        return words["left"] % {"colour": name}
    head = ngettext("%(colour)s: %(on_board)s darts on the board, %(off)s off",
                    "%(colour)s: %(on_board)s darts on the board, %(off)s off", seat["on_board"]) % {
        "colour": name, "on_board": seat["on_board"], "off": seat["removed"]}
    sep = words["sep"]
    return head + (sep + sep.join(parts) if parts else "")


def place(space: int, words: dict | None = None) -> str:
    """'ring 3, bar 5' for ``space`` (0..79)."""
    return (words or texts())["place"] % {"ring": space // 16 + 1, "bar": space % 16}


def then(items: list[str], words: dict | None = None) -> str:
    """``items`` in order: "Red, then Green, then Blue"."""
    words = words or texts()
    text = items[0]
    for item in items[1:]:
        text = words["then"] % {"first": text, "second": item}
    return text


def short(m: dict, words: dict | None = None) -> str:
    """A dart move (``describe_move``'s dict) without its dart: "5 around the ring to
    ring 2, bar 10, home and off the board"."""
    words = words or texts()
    way = m["direction"] if m["direction"] in ("in", "out") else "ring"
    text = words[way] % {"die": m["die"], "place": place(m["to"], words)}
    if m["home"]:
        text += words["home"]
    if m["jump"]:
        text += words["jump"]
    return text


def where(m: dict, words: dict | None = None) -> str:
    """Where a dart of a dart move (``describe_move``'s dict) stands and faces:
    "on ring 2, bar 5, facing clockwise"."""
    words = words or texts()
    return words["on cw" if m["facing"] == "clockwise" else "on ccw"] % {"place": place(m["from"], words)}


def dart_at(dart: int, space: int, words: dict | None = None) -> str:
    """'Dart 3 on ring 2, bar 5'."""
    return _dart_at((words or texts())["language"], dart, space)


@functools.lru_cache(maxsize=4096)
def _dart_at(language: str | None, dart: int, space: int) -> str:
    words = _texts(language)
    return words["dart at"] % {"dart": dart, "place": place(space, words)}


@functools.lru_cache(maxsize=8192)
def _dart_label(language: str | None, dart: int, die: int, direction: str, to: int, home: bool,
                jump: bool) -> str:
    """A dart move's label, once per language and move (a seat's controls list the
    same second moves after many first ones)."""
    words = _texts(language)
    move = {"die": die, "direction": direction, "to": to, "home": home, "jump": jump}
    return words["dart move"] % {"dart": dart, "move": short(move, words)}


def dart_name(dart: int, words: dict | None = None) -> str:
    """'Dart 3'."""
    return (words or texts())["dart name"] % {"dart": dart}


def label(m: dict, words: dict | None = None) -> str:
    """The label of a legal move (``describe_move``'s dict): "Dart 3: 5 around the
    ring to ring 2, bar 10", "Turn dart 3 (ring 2, bar 5) to face clockwise", "Offer
    the roll to Green, then Blue", "Roll the dice"."""
    words = words or texts()
    kind = m["kind"]
    if kind == "dart":
        return _dart_label(words["language"], m["dart"], m["die"], m["direction"], m["to"], m["home"],
                           m["jump"])
    if kind == "reverse":
        facts = {"dart": m["dart"], "place": place_of(m["from_place"], words)}
        # The engine's label says which way the dart will face (its dict has no other word of it).
        return words["turn ccw" if m["label"].endswith("counter-clockwise") else "turn cw"] % facts
    if kind == "offer":
        return words["offer"] % {"seats": then([colour_word(c, words) for c in m["colours"]], words)}
    return words[kind] if kind in ("roll", "accept", "decline", "pass") else m["label"]


def place_of(text: str, words: dict | None = None) -> str:
    """The engine's "ring 3, bar 5" in the active language."""
    ring, bar = (int(part.split()[1]) for part in text.split(", "))
    return place((ring - 1) * 16 + bar, words)
