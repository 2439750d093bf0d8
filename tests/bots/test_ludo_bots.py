"""Computer players: legal, repeatable, within budget, and seeing only the view."""

import json
import random
import time

import pytest

from games.bots import LEVELS, choose_move
from games.engine import CHANCE, UnknownGameError, get_rules
from tests.engine.helpers import drive

LUDO = get_rules("ludo")


def positions(players: int, seed: int, count: int):
    """Decision points of a seeded random match (states where a seat is to move)."""
    rng = random.Random(seed)
    state = LUDO.new_match(players)
    found = []
    while LUDO.to_move(state) is not None and len(found) < count:
        who = LUDO.to_move(state)
        if who == CHANCE:
            move = rng.choice(LUDO.chance_outcomes(state))[0]
        else:
            if len(LUDO.legal_moves(state)) > 1:
                found.append(state)
            move = rng.choice(LUDO.legal_moves(state))
        state = LUDO.play(state, move)
    return found


def decide(state, level, seed=1, **budget):
    seat = LUDO.to_move(state)
    view = json.loads(json.dumps(LUDO.view(state, seat)))  # only what goes over the wire
    return choose_move("ludo", level, view, seat, LUDO.legal_moves(state), random.Random(seed), **budget)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_level_returns_a_legal_move(level, players):
    for state in positions(players, seed=players, count=15):
        move = decide(state, level, iterations=300)
        assert move in LUDO.legal_moves(state)


@pytest.mark.parametrize("level", LEVELS)
def test_a_roll_is_returned_when_rolling_is_the_only_move(level):
    state = LUDO.play(LUDO.new_match(2), "s0")
    assert str(decide(state, level, iterations=100)) == "roll"


def test_bots_accept_legal_moves_as_notation_strings():
    state = positions(2, seed=5, count=1)[0]
    seat = LUDO.to_move(state)
    legal = [str(m) for m in LUDO.legal_moves(state)]
    assert choose_move("ludo", "normal", LUDO.view(state, seat), seat, legal, random.Random(0)) in legal


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_seed_and_iterations_give_the_same_moves(level):
    states = positions(3, seed=9, count=10)
    first = [decide(s, level, seed=4, iterations=500) for s in states]
    again = [decide(s, level, seed=4, iterations=500) for s in states]
    assert first == again


def test_strong_keeps_within_its_time_budget():
    states = positions(4, seed=11, count=6)
    for state in states:
        start = time.perf_counter()
        assert decide(state, "strong", budget_ms=50) in LUDO.legal_moves(state)
        assert time.perf_counter() - start < 1.0, "a generous bound: 20x the budget"


def test_normal_captures_when_it_can():
    state = drive(LUDO.play(LUDO.new_match(2), "s0"), 0, [(6, 0), (6, 0), (5, 0)])  # red on 11
    state = drive(state, 1, [(6, 0), (1, 0)])  # yellow on 27
    state = drive(state, 0, [(6, 0), (4, 0)])  # red on 21
    state = drive(state, 0, [(6, None)])  # enter piece 1, or piece 0 to 27 capturing yellow
    moves = LUDO.view(state, 0)["moves"]
    assert [m["move"] for m in moves if m["captures"]] == ["p0"]
    assert str(decide(state, "normal")) == "p0"
    assert str(decide(state, "strong", iterations=2000)) == "p0"


def test_normal_enters_a_piece_on_a_six_rather_than_shuffle_in_safety():
    state = LUDO.play(LUDO.new_match(2), "s0")
    for move in "roll d6 p0 roll d2 p0 timeout roll d6".split():
        state = LUDO.play(state, move)
    assert [str(m) for m in LUDO.legal_moves(state)] == ["p0", "p1", "p2", "p3"]
    assert str(decide(state, "normal")) in ("p1", "p2", "p3")


def test_bad_levels_and_games_are_refused():
    state = LUDO.play(LUDO.new_match(2), "s0")
    with pytest.raises(ValueError, match="level"):
        choose_move("ludo", "grandmaster", LUDO.view(state, 0), 0, LUDO.legal_moves(state), random.Random())
    with pytest.raises(UnknownGameError):
        choose_move("chess", "easy", {}, 0, ["e4"], random.Random())
