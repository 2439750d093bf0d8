"""Seeded random Rondo playouts on both board sides: every match ends, tiles
are conserved and no view leaks after every ply, with the server's timeout and
leave moves mixed in."""

import random

import pytest

from games.engine import CHANCE

from .rondo_helpers import RONDO, check_rondo_invariants


def playout(players: int, seed: int, events: bool, options=None, check_every: int = 1):
    rng = random.Random(seed)
    state = RONDO.new_match(players, options)
    check_rondo_invariants(state, RONDO, rng)
    for ply in range(5000):
        who = RONDO.to_move(state)
        if who is None:
            return state
        if events and rng.random() < 0.003:
            playing = [s for s, st in enumerate(RONDO.seat_status(state)) if st == "playing"]
            move = RONDO.leave_move(state, rng.choice(playing))
        elif events and who != CHANCE and rng.random() < 0.02:
            move = RONDO.timeout_move(state)
        elif who == CHANCE:
            outcomes = RONDO.chance_outcomes(state)
            move = rng.choices([m for m, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            move = rng.choice(RONDO.legal_moves(state))
        nxt = RONDO.play(state, move)
        if ply % check_every == 0 or RONDO.to_move(nxt) is None:
            check_rondo_invariants(nxt, RONDO, rng)
        if who not in (None, CHANCE) and not move.is_server_event:
            assert RONDO.to_move(nxt) is None or RONDO.legal_moves(nxt), "a named seat always has a move"
        state = nxt
    raise AssertionError(f"a {players}-player match did not end in 5000 plies")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("side", ["blue", "red"])
def test_random_matches_end_with_a_ranked_outcome(players, side):
    for seed in range(4):
        state = playout(players, seed, events=False, options={"side": side}, check_every=7)
        outcome = RONDO.outcome(state)
        assert outcome.reason == "finished"
        assert state.ending
        assert min(outcome.ranks) == 1
        best = max(state.scores)
        assert all(r == 1 for s, r in enumerate(outcome.ranks) if state.scores[s] == best) or any(
            state.scores[s] == best
            and sum(state.racks[s])
            < max(sum(state.racks[t]) for t in range(players) if state.scores[t] == best)
            for s in range(players)
        )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_matches_with_timeouts_and_leavers_end(players):
    for seed in range(6):
        state = playout(
            players, 1000 + seed, events=True, options={"one_change": seed % 2 == 0}, check_every=5
        )
        outcome = RONDO.outcome(state)
        assert 1 in outcome.ranks
        for later, earlier in zip(state.left[1:], state.left, strict=False):
            assert outcome.ranks[earlier] > outcome.ranks[later]
