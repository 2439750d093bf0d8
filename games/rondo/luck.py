"""Rondo's tiles in numbers (docs/features.md "The dice in numbers"): every
tile dealt or drawn counts for the seat it goes to; what a fair bag gives is,
colour by colour, the sum over that seat's draws of the colour's share of the
bag at that draw. There are no dice, no colour is better than another, and
so there is no luck figure and no verdict (docs/decisions.md "The dice in
numbers")."""

from __future__ import annotations

from games.luck import Column, LuckRules

COLOURS = ("yellow", "red", "purple", "blue", "green")


def _step(state, move):
    if move.kind != "tile":
        return None
    bag = state.bag
    total = sum(bag)
    return state.turn, move.colour, tuple(c / total for c in bag)


def _columns(counts: list[int], expected: list[float]) -> list[Column]:
    return [Column(colour, colour.capitalize(), counts[i], expected[i]) for i, colour in enumerate(COLOURS)]


LUCK = LuckRules(
    faces=COLOURS,
    step=_step,
    columns=_columns,
    unit="tile",
    units="tiles",
)
