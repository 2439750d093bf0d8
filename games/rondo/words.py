"""Rondo's colour names in the active language (this folder's ``locale/``).

The tile colours (and the seat colours, which share their names) are written
as nouns, "red", wherever a line names one ("2 red tiles", "a red 3"), so a
language that inflects adjectives words its sentences around the noun
("2 Plättchen in Rot"). Lazy: read in each request's language."""

from django.utils.text import capfirst
from django.utils.translation import pgettext, pgettext_lazy

#: Tile and seat colour -> its name (lower case in English: "red").
COLOUR_WORDS = {
    "yellow": pgettext_lazy("rondo colour", "yellow"),
    "red": pgettext_lazy("rondo colour", "red"),
    "purple": pgettext_lazy("rondo colour", "purple"),
    "blue": pgettext_lazy("rondo colour", "blue"),
    "green": pgettext_lazy("rondo colour", "green"),
}


def colour(name: str) -> str:
    """The colour ``name`` ("red") in the active language ("rot" is "Rot": German
    capitalises its nouns); an unknown name as it is."""
    # The lazy words above are what makemessages reads; the same lookup, made
    # here directly, costs a dictionary look-up rather than a lazy proxy's.
    return pgettext("rondo colour", name) if name in COLOUR_WORDS else name


def colour_cap(name: str) -> str:
    """``colour(name)`` with a capital first letter ("Red")."""
    return capfirst(colour(name))
