"""Seeded random playouts: every match ends, and the invariants hold after
every ply, with the server's timeout and leave moves mixed in."""

import random

import pytest

from games.engine import CHANCE

from .helpers import LUDO, check_ludo_invariants


def playout(players: int, seed: int, events: bool):
    rng = random.Random(seed)
    state = LUDO.new_match(players)
    check_ludo_invariants(state)
    for _ in range(20000):
        who = LUDO.to_move(state)
        if who is None:
            return state
        if events and rng.random() < 0.002:
            playing = [s for s, st in enumerate(LUDO.seat_status(state)) if st == "playing"]
            move = LUDO.leave_move(state, rng.choice(playing))
        elif events and who != CHANCE and rng.random() < 0.01:
            move = LUDO.timeout_move(state)
        elif who == CHANCE:
            outcomes = LUDO.chance_outcomes(state)
            move = rng.choices([m for m, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            move = rng.choice(LUDO.legal_moves(state))
        nxt = LUDO.play(state, move)
        check_ludo_invariants(nxt)
        if who not in (None, CHANCE) and not move.is_server_event:
            assert LUDO.to_move(nxt) is None or LUDO.legal_moves(nxt), "a named seat always has a move"
        state = nxt
    raise AssertionError(f"a {players}-player match did not end in 20000 plies")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_matches_end_with_a_ranked_outcome(players):
    for seed in range(12):
        state = playout(players, seed, events=False)
        outcome = LUDO.outcome(state)
        assert outcome.reason == "finished"
        assert sorted(outcome.ranks) == [1] + [2] * (players - 1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_matches_with_timeouts_and_leavers_end(players):
    for seed in range(12):
        state = playout(players, 1000 + seed, events=True)
        outcome = LUDO.outcome(state)
        assert outcome.ranks.count(1) == 1
        for later, earlier in zip(state.left[1:], state.left, strict=False):
            assert outcome.ranks[earlier] > outcome.ranks[later]
