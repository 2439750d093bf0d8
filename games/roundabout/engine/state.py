"""The Roundabout state and the position arithmetic behind it.

The state is an immutable ``NamedTuple``; ``actor`` and ``legal`` are derived
from the other fields when the state is made (deciding whether a seat has any
choice is part of the rules: docs/rules.md "No stuck seat"). Darts are seat-major:
dart i of seat s is index ``s * n + i`` (n darts per seat) in ``pos``,
``face``, ``circuit`` and ``captured``.
"""

from __future__ import annotations

from functools import cache
from itertools import permutations
from typing import NamedTuple

from games.engine.base import CHANCE

from .board import (
    BAR_PATHS,
    CW,
    JUMPING,
    NEIGHBOURS,
    REMOVED,
    REVERSING,
    RING_PATHS,
    RING_TERRITORIES,
    RINGER_RUN,
    SEAT_TERRITORIES,
    SPACES,
    STEPS,
    TERRITORY,
)
from .moves import ACCEPT, DART, DECLINE, DICE, OFFER, PASS, REVERSE, ROLL, ROLLOFF, RoundaboutMove

#: Phases: "rolloff" (chance: one roll-off die), "roll" (a seat must roll),
#: "dice" (chance: two dice), "move" (the mover decides), "offer" (an offered
#: seat accepts or declines), "over".
PHASES = ("rolloff", "roll", "dice", "move", "offer", "over")

ROLLOFF_OUTCOMES = ROLLOFF[1:]
#: DIRECTION_INDEX: 0 ring, 1 in, 2 out (the order of ``moves.DART``).
RING, IN, OUT = 0, 1, 2


class RoundaboutState(NamedTuple):
    """One Roundabout position.

    players: 2..4. phase: one of ``PHASES``. turn: the roller (-1 during the
    roll-off and once over). mover: the seat playing the roll (the roller, or
    the seat that accepted a Golden Rule offer; -1 outside "move").
    dice: the two dice of this turn, () before the roll. unused: die values
    not yet used this turn. reversed: darts (the mover's numbers) turned this
    turn. offered: the roll has been offered (no further offer). offers: seats
    still to answer an offer, the first one is to move. pos: the space of each
    dart, -1 once removed. face: +1 clockwise, -1 counter-clockwise.
    circuit: the dart has completed a circuit (docs/rules.md "Going home").
    captured: captured at the last completed turn (docs/rules.md "Captures").
    back, back_circuit: pos and circuit before the first die move of this
    turn (for the take-back), () otherwise. moved: a dart changed space this
    turn (or, with ``turning_moves``, was turned). rolloff: seats in the
    current roll-off round; rolls: their
    dice so far. turns: completed turns per seat. idle: completed turns in a
    row without a dart moving. left: seats that left, in order. winner: the
    winning seat or -1. reason: how the match ended ("" while live).
    chance_count: chance steps met so far. turning_moves: turning a dart on
    a reversing double counts as moving it for the stalled end (the rule of
    matches begun before docs/rules.md "Every match ends" said otherwise;
    False for new matches). capped_reversals: a reversing double turns at
    most ``MAX_REVERSALS`` darts (docs/rules.md "Reversing doubles"; False
    only in matches begun before that cap was enforced, which keep the
    rule they began with). actor, legal: derived.
    """

    players: int
    phase: str
    turn: int
    mover: int
    dice: tuple[int, ...]
    unused: tuple[int, ...]
    reversed: tuple[int, ...]
    offered: bool
    offers: tuple[int, ...]
    pos: tuple[int, ...]
    face: tuple[int, ...]
    circuit: tuple[bool, ...]
    captured: tuple[bool, ...]
    back: tuple[int, ...]
    back_circuit: tuple[bool, ...]
    moved: bool
    rolloff: tuple[int, ...]
    rolls: tuple[int, ...]
    turns: tuple[int, ...]
    idle: int
    left: tuple[int, ...]
    winner: int
    reason: str
    chance_count: int
    turning_moves: bool
    capped_reversals: bool
    actor: int | None
    legal: tuple[RoundaboutMove, ...]


# -- position arithmetic -------------------------------------------------------
def occupancy(pos: tuple[int, ...], n: int) -> list[int]:
    """Owner seat of each of the 80 spaces, -1 where empty."""
    occ = [-1] * SPACES
    for idx, s in enumerate(pos):
        if s >= 0:
            occ[s] = idx // n
    return occ


def block_spaces(occ: list[int]) -> list[bool]:
    """Per space: a dart that is part of a block (docs/rules.md "Blocks": another dart
    of the same seat next to it on its ring or its bar)."""
    blk = [False] * SPACES
    for s in range(SPACES):
        o = occ[s]
        if o >= 0:
            for t in NEIGHBOURS[s]:
                if occ[t] == o:
                    blk[s] = True
                    break
    return blk


def path_of(s: int, facing: int, direction: int, die: int):
    """Spaces passed by a move from space ``s`` (landing last), or None when a
    bar move would leave rings 1..5."""
    if direction == RING:
        return RING_PATHS[s][0 if facing == CW else 1][die]
    return BAR_PATHS[s][direction - 1][die]


def candidates(pos, face, captured, n: int, mover: int, values, jumping: bool):
    """The mover's dart moves for the die ``values`` (distinct): a list of
    ``(move, jump)``: ``jump`` when the move passes over another seat's block,
    allowed only with jumping doubles (docs/rules.md "Blocks", "Jumping doubles").
    Captured darts do not move; a move ends on an empty space."""
    occ = occupancy(pos, n)
    out = []
    base = mover * n
    for i in range(n):
        idx = base + i
        s = pos[idx]
        if s < 0 or captured[idx]:
            continue
        per_die = STEPS[s][0 if face[idx] == CW else 1]
        dart_moves = DART[i]
        for v in values:
            for d, land, between in per_die[v]:
                if occ[land] != -1:
                    continue
                jump = False
                for t in between:
                    o = occ[t]
                    if o != -1 and o != mover:
                        for u in NEIGHBOURS[t]:
                            if occ[u] == o:
                                jump = True
                                break
                        if jump:
                            break
                if jump and not jumping:
                    continue
                out.append((dart_moves[d][v], jump, land))
    return out


def apply_dart(players: int, n: int, pos, circuit, mover: int, move: RoundaboutMove, face):
    """(pos, circuit) after the mover's dart ``move`` (already known legal):
    the circuit mark, going home (with the overshoot rule) and ringers
    (docs/rules.md "Going home", "Ringers")."""
    idx = mover * n + move.dart
    s = pos[idx]
    home = SEAT_TERRITORIES[players][mover]
    opposite = (home + 2) % 4
    c = circuit[idx]
    pos = list(pos)
    if move.direction == "r":
        fi = 0 if face[idx] == CW else 1
        land = RING_PATHS[s][fi][move.die][-1]
        terrs = RING_TERRITORIES[s][fi][move.die]
        land_terr = TERRITORY[land]
        if opposite in terrs:
            c = True
        elif c and land_terr != home and home in terrs:
            c = False  # overshot home: a new circuit is needed
        if c and land_terr == home:
            pos[idx] = REMOVED
            circuit = list(circuit)
            circuit[idx] = False
            return tuple(pos), tuple(circuit)
    else:
        land = BAR_PATHS[s][0 if move.direction == "i" else 1][move.die][-1]
        land_terr = TERRITORY[land]
    pos[idx] = land
    if c != circuit[idx]:
        circuit = list(circuit)
        circuit[idx] = c
        circuit = tuple(circuit)
    if land_terr == opposite:
        circuit = list(circuit)
        _ringer(players, n, pos, circuit, mover, land, opposite)
        circuit = tuple(circuit)
    return tuple(pos), circuit


def _ringer(players, n, pos, circuit, mover, land, opposite):
    """Remove the mover's darts in a ringer through ``land`` (in place)."""
    ring_base = land - land % 16
    mine = {}
    base = mover * n
    for i in range(n):
        s = pos[base + i]
        if s >= 0 and s - s % 16 == ring_base and TERRITORY[s] == opposite:
            mine[s % 16] = base + i
    bar = land % 16
    lo = hi = bar
    while lo - 1 >= 4 * opposite and lo - 1 in mine:
        lo -= 1
    while hi + 1 <= 4 * opposite + 3 and hi + 1 in mine:
        hi += 1
    if hi - lo + 1 >= RINGER_RUN[players]:
        for b in range(lo, hi + 1):
            pos[mine[b]] = REMOVED
            circuit[mine[b]] = False


def captures(pos, n: int, players: int) -> tuple[bool, ...]:
    """Per dart: captured in this position (docs/rules.md "Captures"): on one bar,
    three darts on three adjacent rings where the victim has exactly one dart
    on that whole bar and a single other seat has the other two."""
    occ = occupancy(pos, n)
    out = [False] * len(pos)
    for idx, s in enumerate(pos):
        if s < 0:
            continue
        v = idx // n
        r = s // 16  # ring - 1
        below2 = occ[s - 32] if r >= 2 else -1
        below = occ[s - 16] if r >= 1 else -1
        above = occ[s + 16] if r <= 3 else -1
        above2 = occ[s + 32] if r <= 2 else -1
        if (
            (below2 == below and below not in (-1, v))
            or (below == above and below not in (-1, v))
            or (above == above2 and above not in (-1, v))
        ):
            bar = s % 16
            if sum(1 for ring in range(5) if occ[16 * ring + bar] == v) == 1:
                out[idx] = True
    return tuple(out)


def restricted(pos, captured, n: int, mover: int) -> bool:
    """True when the mover has a free dart on a bar where one of its darts is
    captured (the turn may not end so: docs/rules.md "Captures")."""
    base = mover * n
    bars = [pos[base + i] % 16 for i in range(n) if captured[base + i] and pos[base + i] >= 0]
    if not bars:
        return False
    for i in range(n):
        s = pos[base + i]
        if s >= 0 and not captured[base + i] and s % 16 in bars:
            return True
    return False


#: A reversing double turns "one or two" darts (the Roundabout rulebook,
#: "Reversing Doubles"; docs/rules.md "Reversing doubles").
MAX_REVERSALS = 2


def reversible(state_pos, captured, n: int, players: int, mover: int, done) -> list[RoundaboutMove]:
    """Reversals open to the mover: darts on the board, not captured, not in
    their own home territory, not already turned this turn."""
    home = SEAT_TERRITORIES[players][mover]
    base = mover * n
    out = []
    for i in range(n):
        s = state_pos[base + i]
        if s >= 0 and not captured[base + i] and TERRITORY[s] != home and i not in done:
            out.append(REVERSE[i])
    return out


@cache
def offers_for(players: int, roller: int, left) -> tuple[RoundaboutMove, ...]:
    """Every Golden Rule offer of the roller: each ordered choice of one or
    more opponents still playing (docs/rules.md "Golden Rule")."""
    others = [s for s in range(players) if s != roller and s not in left]
    return tuple(OFFER[order] for k in range(1, len(others) + 1) for order in permutations(others, k))


def move_choices(players, turn, mover, dice, unused, reversed_, offered, pos, face, circuit, captured, left,
                 capped_reversals=True):
    """The mover's choices in the "move" phase, in a fixed order (dart moves
    by dart, direction, die; reversals; offers; pass). Empty when the mover
    has no choice at all (the turn then ends by itself). After one reversal the
    mover may turn one more dart or pass; after ``MAX_REVERSALS`` the turn is
    over (unless ``capped_reversals`` is False: the older, uncapped rule)."""
    n = len(pos) // players
    if reversed_:
        if capped_reversals and len(reversed_) >= MAX_REVERSALS:
            return ()
        revs = reversible(pos, captured, n, players, mover, reversed_)
        return tuple(revs) + (PASS,) if revs else ()
    first = len(unused) == 2
    a, b = dice
    doubles = a == b
    jumping = doubles and a in JUMPING
    values = (unused[0],) if doubles or len(unused) == 1 else unused
    cands = candidates(pos, face, captured, n, mover, values, jumping)
    base = mover * n
    victim_bars = [pos[base + i] % 16 for i in range(n) if captured[base + i] and pos[base + i] >= 0]
    now_restricted = bool(victim_bars) and restricted(pos, captured, n, mover)
    if victim_bars and cands:
        kept = []
        for move, jump, land in cands:
            if land % 16 not in victim_bars and not now_restricted:
                kept.append((move, jump, land))
                continue
            npos, ncirc = apply_dart(players, n, pos, circuit, mover, move, face)
            if not restricted(npos, captured, n, mover):
                kept.append((move, jump, land))
            elif first:
                rest = list(unused)
                rest.remove(move.die)
                for m2, _j, _l in candidates(npos, face, captured, n, mover, rest, jumping):
                    p2, _c = apply_dart(players, n, npos, ncirc, mover, m2, face)
                    if not restricted(p2, captured, n, mover):
                        kept.append((move, jump, land))
                        break
        cands = kept
    out = [c[0] for c in cands]
    mandatory = any(not c[1] for c in cands)
    if first:
        if doubles and a in REVERSING:
            out += reversible(pos, captured, n, players, mover, ())
        if not offered and mover == turn and players >= 3:
            out += offers_for(players, turn, left)
    if out and not mandatory and not now_restricted:
        out.append(PASS)
    return tuple(out)


_new = tuple.__new__  # builds the NamedTuple without its Python-level __new__ (speed)


def make(
    players,
    phase,
    turn,
    mover,
    dice,
    unused,
    reversed_,
    offered,
    offers,
    pos,
    face,
    circuit,
    captured,
    back,
    back_circuit,
    moved,
    rolloff,
    rolls,
    turns,
    idle,
    left,
    winner,
    reason,
    k,
    turning_moves=False,
    capped_reversals=True,
) -> RoundaboutState:
    """Build a state, deriving ``actor`` and ``legal`` from the phase. A
    "move" phase may come out with no legal move: the caller ends the turn."""
    if phase == "move":
        legal = move_choices(
            players, turn, mover, dice, unused, reversed_, offered, pos, face, circuit, captured, left,
            capped_reversals,
        )
        actor = mover
    elif phase == "roll":
        legal, actor = (ROLL,), turn
    elif phase == "dice":
        legal, actor = DICE, CHANCE
    elif phase == "offer":
        legal, actor = (ACCEPT, DECLINE), offers[0]
    elif phase == "rolloff":
        legal, actor = ROLLOFF_OUTCOMES, CHANCE
    else:
        legal, actor = (), None
    return _new(
        RoundaboutState,
        (players, phase, turn, mover, dice, unused, reversed_, offered, offers, pos, face, circuit, captured,
         back, back_circuit, moved, rolloff, rolls, turns, idle, left, winner, reason, k, turning_moves,
         capped_reversals, actor, legal),
    )  # fmt: skip


def next_seat(seat: int, players: int, left) -> int:
    """The next seat after ``seat`` in turn order that has not left."""
    s = (seat + 1) % players
    while s in left:
        s = (s + 1) % players
    return s
