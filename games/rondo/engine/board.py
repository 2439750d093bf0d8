"""The Rondo board, built from data (docs/rules.md "Rondo": Board).

The project's board is ``rondo-board.json`` beside this module (a copy of
``shared/rules/rondo-board.json``; never retyped). Any dict of the same shape
makes a board, so tests can use small boards of their own::

    {"colors": ["yellow", "red", "purple", "blue", "green"],
     "center": {"id": "C"},
     "edges": [{"a": "C", "b": "A", "kind": "radial"}, ...],   # kind: ring | radial
     "sides": {"blue": {"spaces": [{"id": "A", "color": "purple", "value": 2,
                                     "gray": false, "x": 0.0, "y": 1.2}, ...]}}}

Spaces are indexed 0..n-1 in the order the side lists them.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from games.engine.base import InvalidOptionsError

from .moves import COLOURS, MAX_RACK, RondoMove

BOARD_FILE = Path(__file__).with_name("rondo-board.json")
RING, RADIAL = 1, 2
EDGE_KINDS = {"ring": RING, "radial": RADIAL}
EDGE_NAMES = {0: None, RING: "ring", RADIAL: "radial"}


@cache
def board_data() -> dict:
    """The project's board data (both sides), read once from ``BOARD_FILE``."""
    return json.loads(BOARD_FILE.read_text())


class Board:
    """One side of a Rondo board, with everything the rules look up per ply.

    ``ids[i]``, ``index[id]``, ``colour[i]`` (0..4, see ``COLOURS``),
    ``value[i]`` (1..5), ``gray[i]``, ``x[i]``/``y[i]`` (space pitch units, y
    up), ``zone[i]``. ``nb[i]``: ``((j, kind), ...)``, the spaces joined to
    ``i`` by an edge and the edge's kind (``RING`` or ``RADIAL``).
    ``nb_mask[i]``: those spaces as a bit mask. ``start_mask``: the spaces
    joined to the centre. ``gray_mask``: the gray spaces. ``up[i][n - 1]`` and
    ``down[i][c]``: the interned placement moves on space i.
    ``down_by_rack[i][m]``: the face-down placements on i for the colours in
    the bit mask m (bit c: colour c on the rack).

    Raises ``InvalidOptionsError`` for data that is not a board.
    """

    def __init__(self, data: dict, side: str):
        try:
            if list(data["colors"]) != list(COLOURS):
                raise InvalidOptionsError(f"a Rondo board's colours are {', '.join(COLOURS)}")
            spaces = data["sides"][side]["spaces"]
            centre = data["center"]["id"]
            self.side = side
            self.ids = tuple(str(s["id"]) for s in spaces)
            self.index = {sid: i for i, sid in enumerate(self.ids)}
            if len(self.index) != len(self.ids) or centre in self.index:
                raise InvalidOptionsError("space ids must be unique and differ from the centre's")
            self.colour = tuple(COLOURS.index(s["color"]) for s in spaces)
            self.value = tuple(int(s["value"]) for s in spaces)
            self.gray = tuple(bool(s.get("gray", False)) for s in spaces)
            self.x = tuple(float(s.get("x", 0.0)) for s in spaces)
            self.y = tuple(float(s.get("y", 0.0)) for s in spaces)
            self.zone = tuple(str(s.get("zone", "")) for s in spaces)
            nb: list[list[tuple[int, int]]] = [[] for _ in spaces]
            start = 0
            for e in data["edges"]:
                kind = EDGE_KINDS[e["kind"]]
                a, b = e["a"], e["b"]
                if a == centre or b == centre:
                    start |= 1 << self.index[b if a == centre else a]
                    continue
                i, j = self.index[a], self.index[b]
                nb[i].append((j, kind))
                nb[j].append((i, kind))
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            if isinstance(e, InvalidOptionsError):
                raise
            raise InvalidOptionsError(f"not a Rondo board (side {side!r}): {e!r}") from None
        n = len(self.ids)
        self.size = n
        self.nb = tuple(tuple(x) for x in nb)
        self.nb_mask = tuple(sum(1 << j for j, _ in x) for x in nb)
        self.edge_kind = {(i, j): k for i in range(n) for j, k in self.nb[i]}
        self.start_mask = start
        self.gray_mask = sum(1 << i for i in range(n) if self.gray[i])
        self.full_mask = (1 << n) - 1
        self.up = tuple(
            tuple(RondoMove("place", sid, count) for count in range(1, MAX_RACK + 1)) for sid in self.ids
        )
        self.down = tuple(tuple(RondoMove("place", sid, 0, c) for c in range(5)) for sid in self.ids)
        self.down_by_rack = tuple(
            tuple(tuple(d[c] for c in range(5) if m >> c & 1) for m in range(32)) for d in self.down
        )


_BOARDS: dict[tuple[int, str], tuple[dict, Board]] = {}


def get_board(data: dict, side: str) -> Board:
    """The ``Board`` of ``side`` in ``data`` (built once per data object and side).

    Raises ``InvalidOptionsError`` for an unknown side or malformed data.
    """
    key = (id(data), side)
    held = _BOARDS.get(key)
    if held is not None and held[0] is data:
        return held[1]
    sides = data.get("sides", {}) if isinstance(data, dict) else {}
    if side not in sides:
        raise InvalidOptionsError(f"unknown Rondo board side {side!r}; sides: {', '.join(sides)}")
    board = Board(data, side)
    _BOARDS[key] = (data, board)  # holding ``data`` keeps its id from being reused
    return board
