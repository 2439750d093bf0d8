"""Roundabout's words on the site, in the active language: the seat colours, the
board's spaces and the legal moves' labels (buttons, the board's choices, their
accessible names).

The engine's ``describe_move`` labels its moves in English for code (the API and
the bots read them: docs/api.md); the pages word the same moves here, from the
facts ``describe_move`` gives (die, direction, spaces, jump, home). The strings are
in the game folder's own catalogue (games/roundabout/locale).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

#: The seat colours as the board's words name them ("Red to play."), by the engine's colour name.
COLOUR_WORDS = {
    "red": pgettext_lazy("seat colour", "Red"),
    "green": pgettext_lazy("seat colour", "Green"),
    "yellow": pgettext_lazy("seat colour", "Yellow"),
    "blue": pgettext_lazy("seat colour", "Blue"),
}


def colour_word(colour: str) -> str:
    """``colour`` ("red") as a person reads it, in the active language ("Red")."""
    word = COLOUR_WORDS.get(colour)
    return str(word) if word is not None else colour.capitalize()


def place(space: int) -> str:
    """'ring 3, bar 5' for ``space`` (0..79)."""
    return _("ring %(ring)s, bar %(bar)s") % {"ring": space // 16 + 1, "bar": space % 16}


def then(items: list[str]) -> str:
    """``items`` in order: "Red, then Green, then Blue"."""
    text = items[0]
    for item in items[1:]:
        text = _("%(first)s, then %(second)s") % {"first": text, "second": item}
    return text


def short(m: dict) -> str:
    """A dart move (``describe_move``'s dict) without its dart: "5 around the ring to
    ring 2, bar 10, home and off the board"."""
    where = {"die": m["die"], "place": place(m["to"])}
    if m["direction"] == "in":
        text = _("%(die)s inward to %(place)s") % where
    elif m["direction"] == "out":
        text = _("%(die)s outward to %(place)s") % where
    else:
        text = _("%(die)s around the ring to %(place)s") % where
    if m["home"]:
        # Translators: added after a dart move's words ("5 around the ring to ring 2, bar 10").
        text += _(", home and off the board")
    if m["jump"]:
        # Translators: added after a dart move's words ("5 around the ring to ring 2, bar 10").
        text += _(" (jumping a block)")
    return text


def where(m: dict) -> str:
    """Where a dart of a dart move (``describe_move``'s dict) stands and faces:
    "on ring 2, bar 5, facing clockwise"."""
    if m["facing"] == "clockwise":
        return _("on %(place)s, facing clockwise") % {"place": place(m["from"])}
    return _("on %(place)s, facing counter-clockwise") % {"place": place(m["from"])}


def dart_at(dart: int, space: int) -> str:
    """"Dart 3 on ring 2, bar 5"."""
    return _("Dart %(dart)s on %(place)s") % {"dart": dart, "place": place(space)}


def dart_name(dart: int) -> str:
    """"Dart 3"."""
    return _("Dart %(dart)s") % {"dart": dart}


def label(m: dict, colours: list[str] | None = None) -> str:
    """The label of a legal move (``describe_move``'s dict): "Dart 3: 5 around the
    ring to ring 2, bar 10", "Turn dart 3 (ring 2, bar 5) to face clockwise", "Offer
    the roll to Green, then Blue", "Roll the dice"."""
    kind = m["kind"]
    if kind == "dart":
        return _("Dart %(dart)s: %(move)s") % {"dart": m["dart"], "move": short(m)}
    if kind == "reverse":
        facts = {"dart": m["dart"], "place": place_of(m["from_place"])}
        # The engine's label says which way the dart will face (its dict has no other word of it).
        if m["label"].endswith("counter-clockwise"):
            return _("Turn dart %(dart)s (%(place)s) to face counter-clockwise") % facts
        return _("Turn dart %(dart)s (%(place)s) to face clockwise") % facts
    if kind == "offer":
        return _("Offer the roll to %(seats)s") % {"seats": then([colour_word(c) for c in m["colours"]])}
    words = {
        "roll": lambda: _("Roll the dice"),
        "accept": lambda: _("Accept the offered roll"),
        "decline": lambda: _("Decline the offered roll"),
        "pass": lambda: _("End the turn (pass)"),
    }
    return words[kind]() if kind in words else m["label"]


def place_of(text: str) -> str:
    """The engine's "ring 3, bar 5" in the active language."""
    ring, bar = (int(part.split()[1]) for part in text.split(", "))
    return place((ring - 1) * 16 + bar)
