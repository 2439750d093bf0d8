"""Helpers for Roundabout engine tests: build chosen positions, play scripts,
and check the invariants every Roundabout state keeps."""

from __future__ import annotations

import json

from games.engine import CHANCE, get_rules
from games.roundabout.engine.board import SPACES, darts_per_seat, space
from games.roundabout.engine.state import captures

RA = get_rules("roundabout")


def position(
    players: int = 2,
    darts: dict | None = None,
    *,
    turn: int = 0,
    circuit=(),
    captured=None,
    turns=None,
    idle: int = 0,
    left=(),
    chance_count: int = 1,
    turning_moves: bool = False,
    capped_reversals: bool = True,
):
    """A state where ``turn`` is to roll, with only the darts in ``darts``:
    ``{seat: {dart: (ring, bar, "cw" | "ccw")}}`` (every other dart is off the
    board). ``circuit``: (seat, dart) pairs that have completed a circuit.
    ``captured``: (seat, dart) pairs, or None to evaluate captures on this
    position as if a turn had just been completed. ``turning_moves``: the
    stalled-end rule of matches begun before turning stopped counting as
    moving (docs/rules.md "Every match ends"); new matches have False.
    ``capped_reversals``: False for the uncapped reversals of matches begun
    before a reversing double was held to two darts (docs/rules.md
    "Reversing doubles"); new matches have True."""
    n = darts_per_seat(players)
    rows = []
    for s in range(players):
        row = []
        for i in range(n):
            spec = (darts or {}).get(s, {}).get(i)
            if spec is None:
                row.append([None, "cw", False, False])
            else:
                ring, bar, facing = spec
                row.append([space(ring, bar), facing, (s, i) in circuit, False])
        rows.append(row)
    flat = [-1 if d[0] is None else d[0] for row in rows for d in row]
    if captured is None:
        caught = captures(tuple(flat), n, players)
    else:
        caught = [False] * len(flat)
        for s, i in captured:
            caught[s * n + i] = True
    for s in range(players):
        for i in range(n):
            rows[s][i][3] = bool(caught[s * n + i])
    data = {
        "game": "roundabout",
        "players": players,
        "phase": "roll",
        "turn": turn,
        "mover": None,
        "dice": [],
        "unused": [],
        "reversed": [],
        "offered": False,
        "offers": [],
        "darts": rows,
        "back": None,
        "back_circuit": None,
        "moved": False,
        "rolloff": [],
        "rolls": [],
        "turns": list(turns or [0] * players),
        "idle": idle,
        "left": list(left),
        "winner": None,
        "reason": "",
        "chance_count": chance_count,
    }
    if not turning_moves:
        data["turning_moves"] = False  # as a new match dumps it; absent means the older rule
    if capped_reversals:
        data["capped_reversals"] = True  # likewise
    return RA.load(data)


def run(state, script: str):
    """Play ``script``: moves separated by commas ("roll, d3-5, 0r3, rev 2")."""
    for text in script.split(","):
        text = text.strip()
        if text:
            state = RA.play(state, text)
    return state


def legal(state) -> list[str]:
    """The legal moves' notation."""
    return [str(m) for m in RA.legal_moves(state)]


def where(state, seat: int, dart: int):
    """(ring, bar) of a dart, or None once it is off the board."""
    n = darts_per_seat(state.players)
    p = state.pos[seat * n + dart]
    return None if p < 0 else (p // 16 + 1, p % 16)


def is_captured(state, seat: int, dart: int) -> bool:
    return state.captured[seat * darts_per_seat(state.players) + dart]


def check_roundabout_invariants(state, before=None) -> None:
    """What every Roundabout state keeps, checked after every ply; with
    ``before`` (the state one ply earlier) also what a ply keeps."""
    n = darts_per_seat(state.players)
    on = [p for p in state.pos if p >= 0]
    assert len(on) == len(set(on)), "no two darts share a space"
    assert all(-1 <= p < SPACES for p in state.pos)
    assert all(c is False or p >= 0 for c, p in zip(state.captured, state.pos, strict=True)), (
        "only darts on the board are captured"
    )
    for s in state.left:
        assert all(p < 0 for p in state.pos[s * n : s * n + n]), "a leaver's darts are off the board"
    who = RA.to_move(state)
    moves = RA.legal_moves(state)
    assert (who is None) == (moves == [])
    assert (who is None) == (RA.outcome(state) is not None)
    if who == CHANCE:
        outs = RA.chance_outcomes(state)
        assert outs and all(type(w) is int and w > 0 for _, w in outs)
    elif who is not None:
        assert who not in state.left
    if who is None and state.reason == "finished":
        w = state.winner
        assert all(p < 0 for p in state.pos[w * n : w * n + n])
    if before is not None:
        was = sum(1 for p in before.pos if p >= 0)
        assert len(on) <= was, "dart counts only fall"
        for idx, (p, q) in enumerate(zip(before.pos, state.pos, strict=True)):
            if before.captured[idx] and q >= 0 and state.phase != "over":
                # a captured dart never moves (it may leave the board in a ringer or with its seat)
                assert p == q, "a captured dart moved"
    data = RA.dump(state)
    assert RA.load(json.loads(json.dumps(data))) == state


def check_roundabout_step(before, move, after) -> None:
    """What one ply keeps: the state invariants, plus: a dart move passes over
    another seat's block only with jumping doubles (2-2, 4-4, 6-6)."""
    check_roundabout_invariants(after, before)
    if getattr(move, "kind", None) == "dart":
        from games.roundabout.engine.board import JUMPING
        from games.roundabout.engine.state import block_spaces, occupancy, path_of

        n = darts_per_seat(before.players)
        idx = before.mover * n + move.dart
        path = path_of(before.pos[idx], before.face[idx], "rio".index(move.direction), move.die)
        occ = occupancy(before.pos, n)
        blk = block_spaces(occ)
        jumped = any(occ[t] not in (-1, before.mover) and blk[t] for t in path[:-1])
        a, b = before.dice
        assert not jumped or (a == b and a in JUMPING), "a block was passed without jumping doubles"
        assert not before.captured[idx], "a captured dart moved"
