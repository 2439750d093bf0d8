"""Helpers for engine tests: reach positions by playing chosen moves and
chance outcomes, and check the invariants every Ludo state keeps."""

from __future__ import annotations

import json

from games.engine import CHANCE, get_rules
from games.ludo.engine.board import BASE, HOME

LUDO = get_rules("ludo")


def run(state, script: str, rules=LUDO):
    """Play ``script``: moves in notation separated by commas or blanks
    ("s0 roll d6 p0", "leave 2" counts as one move)."""
    tokens = script.replace(",", " ").split()
    i = 0
    while i < len(tokens):
        text = tokens[i]
        if text == "leave":
            text = f"leave {tokens[i + 1]}"
            i += 1
        state = rules.play(state, text)
        i += 1
    return state


def drive(state, seat: int, steps, rules=LUDO):
    """For each ``(die, piece)`` in ``steps``: the other seats time out
    until it is ``seat``'s turn, then ``seat`` rolls ``die`` and, if
    ``piece`` is not None, moves it."""
    for die, piece in steps:
        while rules.to_move(state) != seat:
            state = rules.play(state, "timeout")
        state = rules.play(state, "roll")
        state = rules.play(state, f"d{die}")
        if piece is not None:
            state = rules.play(state, f"p{piece}")
    return state


#: Dice that take one piece from base to home (enter, then 56 steps, never
#: three sixes in a row).
TO_HOME = (6, 6, 5, 6, 6, 5, 6, 6, 5, 6, 5)


def pieces_of(state, seat: int) -> list[int]:
    """Progress of each piece of ``seat`` (-1 = base)."""
    return list(state.pieces[4 * seat : 4 * seat + 4])


def check_ludo_invariants(state) -> None:
    """What every Ludo state keeps, checked after every ply."""
    rules = LUDO
    n = state.players
    assert len(state.pieces) == 4 * n
    assert all(BASE <= p <= HOME for p in state.pieces)
    for s in state.left:
        assert pieces_of(state, s) == [BASE] * 4, "a leaver's pieces are off the board"
    who = rules.to_move(state)
    legal = rules.legal_moves(state)
    assert (who is None) == (legal == [])
    assert (who is None) == (rules.outcome(state) is not None)
    if who == CHANCE:
        outs = rules.chance_outcomes(state)
        assert outs and all(type(w) is int and w > 0 for _, w in outs)
    elif who is not None:
        assert who not in state.left
        assert 0 <= state.sixes <= 2
    if who is None:
        homes = [s for s in range(n) if pieces_of(state, s) == [HOME] * 4]
        assert homes == ([state.winner] if state.reason == "finished" else [])
    else:
        assert all(pieces_of(state, s) != [HOME] * 4 for s in range(n))
    data = rules.dump(state)
    assert rules.load(json.loads(json.dumps(data))) == state
