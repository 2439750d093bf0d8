"""Seeded random Roundabout playouts: every match ends with a ranked outcome,
and the invariants hold after every ply (no two darts share a space, dart
counts only fall, captured darts never move, blocks are passed only with
jumping doubles), with the server's timeout and leave moves mixed in."""

import random

import pytest

from games.engine import CHANCE

from .roundabout_helpers import RA, check_roundabout_invariants, check_roundabout_step


def playout(players: int, seed: int, events: bool):
    rng = random.Random(seed)
    state = RA.new_match(players)
    check_roundabout_invariants(state)
    for _ in range(50000):
        who = RA.to_move(state)
        if who is None:
            return state
        if events and rng.random() < 0.002:
            playing = [s for s, st in enumerate(RA.seat_status(state)) if st == "playing"]
            move = RA.leave_move(state, rng.choice(playing))
        elif events and who != CHANCE and rng.random() < 0.02:
            move = RA.timeout_move(state)
        elif who == CHANCE:
            move = rng.choice(RA.chance_outcomes(state))[0]
        else:
            move = rng.choice(RA.legal_moves(state))
        nxt = RA.play(state, move)
        check_roundabout_step(state, move, nxt)
        if who not in (None, CHANCE):
            assert RA.to_move(nxt) is None or RA.legal_moves(nxt), "a named seat always has a move"
        state = nxt
    raise AssertionError(f"a {players}-player match did not end in 50000 plies")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_matches_end_with_a_ranked_outcome(players):
    reasons = set()
    for seed in range(8):
        state = playout(players, seed, events=False)
        outcome = RA.outcome(state)
        reasons.add(outcome.reason)
        assert outcome.reason in ("finished", "stalled", "turn_limit")
        assert min(outcome.ranks) == 1
    assert "finished" in reasons


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_matches_with_timeouts_and_leavers_end(players):
    for seed in range(8):
        state = playout(players, 1000 + seed, events=True)
        outcome = RA.outcome(state)
        assert outcome.ranks.count(1) >= 1
        for later, earlier in zip(state.left[1:], state.left, strict=False):
            assert outcome.ranks[earlier] > outcome.ranks[later]
