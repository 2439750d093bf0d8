"""Ludo board geometry and seating as precomputed tables.

Sources: the Ludo rule text, rules 1-5; docs/rules.md "Ludo" (Board, Seats, Progress).

Cells: the shared ring has absolute cells 0..51, clockwise. Colour c
(0 red, 1 green, 2 yellow, 3 blue) starts at cell 13*c and has its star at
13*c + 8; all eight are safe in every match.

Progress of a piece, relative to its owner's colour: ``BASE`` (-1, not on the
board), 0..50 on the ring (absolute cell (13*c + p) mod 52), 51..55 its own
home lane, 56 ``HOME``.
"""

from __future__ import annotations

BASE = -1
RING_LAST = 50
LANE_FIRST = 51
HOME = 56
RING_CELLS = 52
PIECES_PER_SEAT = 4

#: Colour names by colour index (docs/rules.md "Ludo": Board).
COLOUR_NAMES = ("red", "green", "yellow", "blue")

#: Colour index of each seat, by player count (docs/rules.md "Ludo": Seats).
SEAT_COLOURS = {
    2: (0, 2),
    3: (0, 1, 2),
    4: (0, 1, 2, 3),
}

START_CELLS = tuple(13 * c for c in range(4))
STAR_CELLS = tuple(13 * c + 8 for c in range(4))
SAFE_CELLS = frozenset(START_CELLS + STAR_CELLS)

#: CELL[c][p]: absolute ring cell of progress p (0..56) for colour c, or None
#: when p is in the home lane or home.
CELL = tuple(
    tuple((13 * c + p) % RING_CELLS if p <= RING_LAST else None for p in range(HOME + 1)) for c in range(4)
)

#: RING_PROGRESS[c][cell]: the progress at which a piece of colour c stands on
#: absolute ``cell``, or None for the one ring cell colour c never stands on
#: (the cell before its start, where it turns into its home lane).
RING_PROGRESS = tuple(
    tuple(p if (p := (cell - 13 * c) % RING_CELLS) <= RING_LAST else None for cell in range(RING_CELLS))
    for c in range(4)
)


def where(progress: int) -> str:
    """ "base", "ring", "lane" or "home" for a progress value (-1..56)."""
    if progress == BASE:
        return "base"
    if progress <= RING_LAST:
        return "ring"
    if progress < HOME:
        return "lane"
    return "home"
