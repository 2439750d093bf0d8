"""Roundabout computer players: legal, repeatable, within budget, seeing only
the view, and sensible where one move is clearly best."""

import json
import random
import time

import pytest

from games.bots import GAMES, LEVELS, choose_move
from games.engine import CHANCE
from tests.engine.roundabout_helpers import RA, position, run, where


def positions(players: int, seed: int, count: int):
    """Decision points with a choice, from a seeded random match."""
    rng = random.Random(seed)
    state = RA.new_match(players)
    found = []
    while RA.to_move(state) is not None and len(found) < count:
        if RA.to_move(state) == CHANCE:
            move = rng.choice(RA.chance_outcomes(state))[0]
        else:
            if len(RA.legal_moves(state)) > 1:
                found.append(state)
            move = rng.choice(RA.legal_moves(state))
        state = RA.play(state, move)
    return found


def decide(state, level, seed=1, **budget):
    seat = RA.to_move(state)
    view = json.loads(json.dumps(RA.view(state, seat)))  # only what goes over the wire
    return choose_move("roundabout", level, view, seat, RA.legal_moves(state), random.Random(seed), **budget)


def test_roundabout_has_computer_players():
    assert "roundabout" in GAMES


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_level_returns_a_legal_move(level, players):
    for state in positions(players, seed=players, count=12):
        assert decide(state, level, iterations=400) in RA.legal_moves(state)


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_seed_and_iterations_give_the_same_moves(level):
    states = positions(3, seed=9, count=8)
    first = [decide(s, level, seed=4, iterations=500) for s in states]
    again = [decide(s, level, seed=4, iterations=500) for s in states]
    assert first == again


def test_bots_accept_legal_moves_as_notation_strings():
    state = positions(2, seed=5, count=1)[0]
    seat = RA.to_move(state)
    legal = [str(m) for m in RA.legal_moves(state)]
    assert choose_move("roundabout", "normal", RA.view(state, seat), seat, legal, random.Random(0)) in legal


def test_strong_keeps_within_its_time_budget():
    for state in positions(4, seed=11, count=5):
        start = time.perf_counter()
        assert decide(state, "strong", budget_ms=50) in RA.legal_moves(state)
        assert time.perf_counter() - start < 1.0, "a generous bound: 20x the budget"


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_a_dart_that_can_go_home_goes_home(level):
    darts = {0: {0: (3, 14, "cw"), 1: (1, 6, "cw")}, 1: {0: (5, 12, "cw")}}
    state = run(position(2, darts, circuit={(0, 0)}), "roll, d3-1")
    while RA.to_move(state) == 0:
        state = RA.play(state, decide(state, level, iterations=3000))
    assert where(state, 0, 0) is None, "home within the turn"


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_a_ringer_is_taken_when_it_is_there(level):
    darts = {0: {0: (3, 8, "cw"), 1: (3, 9, "cw"), 2: (3, 10, "cw"), 3: (3, 6, "cw"), 4: (1, 14, "cw")},
             1: {0: (5, 12, "cw")}}  # fmt: skip
    state = run(position(2, darts), "roll, d5-2")
    while RA.to_move(state) == 0:
        state = RA.play(state, decide(state, level, iterations=3000))
    assert where(state, 0, 0) is None, "the ringer is made within the turn"


def test_normal_accepts_an_offered_roll():
    three = {0: {0: (3, 5, "cw")}, 1: {0: (3, 12, "cw")}, 2: {0: (2, 8, "ccw")}}
    state = run(position(3, three), "roll, d3-4, offer 1")
    assert str(decide(state, "normal")) == "accept"


def test_choose_move_refuses_a_view_where_the_seat_is_not_to_move():
    state = positions(2, seed=3, count=1)[0]
    other = 1 - RA.to_move(state)
    with pytest.raises(ValueError):
        choose_move(
            "roundabout", "normal", RA.view(state, other), other, RA.legal_moves(state)[:2], random.Random(0)
        )
