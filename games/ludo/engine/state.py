"""The Ludo state: an immutable tuple, built for speed.

The state is a ``NamedTuple``; ``actor`` and ``legal`` are derived from the
other fields (they are computed once when the state is made, because deciding
whether a seat has any move is part of the rules: docs/rules.md "No stuck seat").
"""

from __future__ import annotations

from typing import NamedTuple

from games.engine.base import CHANCE

from .board import BASE, HOME, PIECES_PER_SEAT, RING_LAST
from .moves import DIE, PIECE, ROLL, START, LudoMove

#: Phases: "start" (chance: the starting seat), "roll" (a seat must roll),
#: "die" (chance: the die), "move" (a seat must choose a piece), "over".
PHASES = ("start", "roll", "die", "move", "over")

DIE_OUTCOMES = DIE[1:]


class LudoState(NamedTuple):
    """One Ludo position.

    players: 2..4. phase: one of ``PHASES``. turn: the seat whose turn it is
    (-1 before the start is drawn and once the match is over). die: the last
    die rolled, 1..6, or 0 before any roll. sixes: sixes rolled in a row in
    this turn (0..2). pieces: progress (``BASE`` = -1, 0..56) of each piece,
    seat-major: piece i of seat s is ``pieces[4*s + i]``. left: seats that
    left, in the order they left. winner: the winning seat or -1. reason: how
    the match ended ("" while live). chance_count: chance steps met so far.
    autoplay_forced: the match option. actor, legal: derived (``to_move`` and
    the legal moves).
    """

    players: int
    phase: str
    turn: int
    die: int
    sixes: int
    pieces: tuple[int, ...]
    left: tuple[int, ...]
    winner: int
    reason: str
    chance_count: int
    autoplay_forced: bool
    actor: int | None
    legal: tuple[LudoMove, ...]


def movable(pieces: tuple[int, ...], seat: int, die: int) -> tuple[LudoMove, ...]:
    """Piece moves of ``seat`` for ``die`` (rules 2 and 4): a piece in base
    needs a 6; a piece may not pass home (56)."""
    base = PIECES_PER_SEAT * seat
    out = []
    for i in range(PIECES_PER_SEAT):
        p = pieces[base + i]
        if p == BASE:
            if die == 6:
                out.append(PIECE[i])
        elif p + die <= HOME:
            out.append(PIECE[i])
    return tuple(out)


def make(players, phase, turn, die, sixes, pieces, left, winner, reason, k, autoplay) -> LudoState:
    """Build a state, deriving ``actor`` and ``legal`` from the phase.

    Callers make sure a "move" phase has at least one piece move.
    """
    if phase == "roll":
        return LudoState(
            players, phase, turn, die, sixes, pieces, left, winner, reason, k, autoplay, turn, (ROLL,)
        )
    if phase == "die":
        return LudoState(
            players, phase, turn, die, sixes, pieces, left, winner, reason, k, autoplay, CHANCE, DIE_OUTCOMES
        )
    if phase == "move":
        return LudoState(
            players,
            phase,
            turn,
            die,
            sixes,
            pieces,
            left,
            winner,
            reason,
            k,
            autoplay,
            turn,
            movable(pieces, turn, die),
        )
    if phase == "start":
        return LudoState(
            players,
            phase,
            turn,
            die,
            sixes,
            pieces,
            left,
            winner,
            reason,
            k,
            autoplay,
            CHANCE,
            START[:players],
        )
    return LudoState(players, "over", -1, die, 0, pieces, left, winner, reason, k, autoplay, None, ())


def advance(
    state: LudoState,
    phase: str,
    turn: int,
    die: int,
    sixes: int,
    pieces=None,
    left=None,
    k=None,
    winner: int = -1,
    reason: str = "",
) -> LudoState:
    """The state after ``state`` with these fields changed; ``pieces``,
    ``left`` and the chance count ``k`` stay as they were unless given."""
    return make(
        state.players, phase, turn, die, sixes,
        state.pieces if pieces is None else pieces,
        state.left if left is None else left,
        winner, reason,
        state.chance_count if k is None else k,
        state.autoplay_forced,
    )  # fmt: skip


def initial(players: int, autoplay: bool) -> LudoState:
    """A new match: all pieces in base, the starting seat not yet drawn."""
    return make(players, "start", -1, 0, 0, (BASE,) * (PIECES_PER_SEAT * players), (), -1, "", 0, autoplay)


def next_seat(seat: int, players: int, left: tuple[int, ...]) -> int:
    """The next seat after ``seat`` in turn order that has not left."""
    s = (seat + 1) % players
    while s in left:
        s = (s + 1) % players
    return s


def is_ring(progress: int) -> bool:
    """True when a piece with this progress stands on the shared ring."""
    return 0 <= progress <= RING_LAST
