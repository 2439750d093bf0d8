"""Rondo's tiles in numbers (docs/features.md "The dice in numbers"): every
tile dealt or drawn counts for the seat it goes to; what a fair bag gives is,
colour by colour, the sum over that seat's draws of the colour's share of the
bag at that draw. There are no dice, no colour is better than another, and
so there is no luck figure and no verdict (docs/decisions.md "The dice in
numbers")."""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

from games.luck import Column, LuckRules
from games.rondo.words import colour_cap

COLOURS = ("yellow", "red", "purple", "blue", "green")


def _step(state, move):
    if move.kind != "tile":
        return None
    bag = state.bag
    total = sum(bag)
    return state.turn, move.colour, tuple(c / total for c in bag)


def _columns(counts: list[int], expected: list[float]) -> list[Column]:
    return [Column(colour, colour_cap(colour), counts[i], expected[i]) for i, colour in enumerate(COLOURS)]


LUCK = LuckRules(
    faces=COLOURS,
    step=_step,
    columns=_columns,
    unit=pgettext_lazy("rondo dice in numbers", "tile"),
    units=pgettext_lazy("rondo dice in numbers", "tiles"),
)
