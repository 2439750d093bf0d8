"""The Rondo state: an immutable value with slots, built for speed.

Tiles live in four places, always 120 in all (24 per colour): the bag
(``bag[c]`` tiles of colour c), the racks (``racks[s][c]``), and the board's
cells: ``cells[i]`` is 0 for an empty space, n > 0 for n tiles face up (of the
space's colour), or ``-(1 + c + 5 * owner)`` for one tile of colour c placed
face down by seat ``owner``.

``occ`` (occupied spaces) and ``frontier`` (empty spaces next to an occupied
space or the centre) are bit masks derived from the cells; the legal moves
are derived on demand and cached.
"""

from __future__ import annotations

from games.engine.base import CHANCE

#: Tiles of each colour in the game (rulebook "Game Components": 120 = 5 x 24).
TILES_PER_COLOUR = 24

#: Phases: "start" (chance: the starting seat), "deal" (chance: the opening
#: tiles, 2 per seat), "turn" (a seat places or draws), "draw" (chance: the
#: tiles a seat draws), "over".
PHASES = ("start", "deal", "turn", "draw", "over")

FIELDS = (
    "board",
    "players",
    "phase",
    "turn",
    "starter",
    "pending",
    "bag",
    "racks",
    "cells",
    "scores",
    "chain",
    "chain_kind",
    "changed",
    "ending",
    "left",
    "reason",
    "k",
    "one_change",
)


def down_code(colour: int, owner: int) -> int:
    """The cell value of one tile of ``colour`` face down, placed by ``owner``."""
    return -(1 + colour + 5 * owner)


def down_colour(cell: int) -> int:
    """Colour index 0..4 of a face-down cell value (< 0)."""
    return (-cell - 1) % 5


def down_owner(cell: int) -> int:
    """Seat that placed a face-down cell value (< 0)."""
    return (-cell - 1) // 5


def frontier_of(board, occ: int) -> int:
    """Empty spaces next to an occupied space or the centre, as a bit mask."""
    f = board.start_mask
    nb_mask = board.nb_mask
    m = occ
    while m:
        low = m & -m
        f |= nb_mask[low.bit_length() - 1]
        m ^= low
    return f & ~occ


class RondoState:
    """One Rondo position (immutable by convention: nothing changes it).

    board: the ``Board`` (side). players: 2..4. phase: one of ``PHASES``.
    turn: the seat whose turn (or deal, or draw) it is, -1 at the start and
    once over. starter: the starting seat, -1 before it is drawn. pending:
    tiles still to draw in this deal or draw. bag: 5 counts. racks: per seat,
    5 counts. cells: see the module docstring. scores: per seat. chain: the
    spaces placed on in this turn, in order. chain_kind: the kind of the last
    edge of the chain (0 none yet, 1 ring, 2 radial). changed: the chain has
    changed edge kind once. ending: the end was triggered (last gray space
    covered, or a seat could not draw what its turn required); the round is
    being finished. left: seats that left, in order. reason: how it ended (""
    while live). k: chance steps met so far. one_change: the match option.
    """

    __slots__ = (*FIELDS, "occ", "frontier", "_legal")

    def __init__(
        self,
        board,
        players,
        phase,
        turn,
        starter,
        pending,
        bag,
        racks,
        cells,
        scores,
        chain,
        chain_kind,
        changed,
        ending,
        left,
        reason,
        k,
        one_change,
        occ=None,
        frontier=None,
    ):
        self.board = board
        self.players = players
        self.phase = phase
        self.turn = turn
        self.starter = starter
        self.pending = pending
        self.bag = bag
        self.racks = racks
        self.cells = cells
        self.scores = scores
        self.chain = chain
        self.chain_kind = chain_kind
        self.changed = changed
        self.ending = ending
        self.left = left
        self.reason = reason
        self.k = k
        self.one_change = one_change
        if occ is None:
            occ = 0
            for i, v in enumerate(cells):
                if v:
                    occ |= 1 << i
            frontier = frontier_of(board, occ)
        self.occ = occ
        self.frontier = frontier
        self._legal = None

    def replace(self, **changes) -> RondoState:
        """A copy with ``changes`` (field names); occ and frontier are
        recomputed when the cells change."""
        values = {f: getattr(self, f) for f in FIELDS}
        values.update(changes)
        if "cells" not in changes:
            values["occ"], values["frontier"] = self.occ, self.frontier
        return RondoState(**values)

    def key(self) -> tuple:
        return tuple(getattr(self, f) for f in FIELDS[1:]) + (self.board.side,)

    def __eq__(self, other):
        if other.__class__ is not RondoState:
            return NotImplemented
        return self.board is other.board and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def __repr__(self):
        return f"RondoState(phase={self.phase!r}, turn={self.turn}, k={self.k}, scores={self.scores})"

    @property
    def actor(self) -> int | None:
        """``to_move``: the seat in the turn phase, CHANCE at a chance step,
        None once over."""
        phase = self.phase
        if phase == "turn":
            return self.turn
        if phase == "over":
            return None
        return CHANCE
