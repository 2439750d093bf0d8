"""Rondo computer players: legal, repeatable, playing whole matches, and
deciding from their view alone (re-dealing what they cannot see changes
nothing)."""

import json
import random

import pytest

from games.bots import LEVELS, choose_move
from games.engine import CHANCE, get_rules
from games.rondo import bot as rondo_bots
from tests.engine.rondo_helpers import position, tile_total

RONDO = get_rules("rondo")


def positions(players: int, seed: int, count: int, mid_chain: bool = False):
    """Decision points (a seat to move with a choice) of a seeded random match."""
    rng = random.Random(seed)
    state = RONDO.new_match(players)
    found = []
    while RONDO.to_move(state) is not None and len(found) < count:
        who = RONDO.to_move(state)
        if who == CHANCE:
            outs = RONDO.chance_outcomes(state)
            move = rng.choices([m for m, _ in outs], [w for _, w in outs])[0]
        else:
            legal = RONDO.legal_moves(state)
            if len(legal) > 1 and bool(state.chain) == mid_chain and rng.random() < 0.3:
                found.append(state)
            move = rng.choice(legal)
        state = RONDO.play(state, move)
    return found


def decide(state, level, seed=1, seat=None, **budget):
    seat = RONDO.to_move(state) if seat is None else seat
    view = json.loads(json.dumps(RONDO.view(state, seat)))  # only what goes over the wire
    return choose_move("rondo", level, view, seat, RONDO.legal_moves(state), random.Random(seed), **budget)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 4])
def test_every_level_returns_a_legal_move(level, players):
    for mid in (False, True):
        for state in positions(players, 7 + players, 6, mid_chain=mid):
            move = decide(state, level, iterations=30)
            assert move in RONDO.legal_moves(state)


@pytest.mark.parametrize("level", LEVELS)
def test_a_fixed_seed_and_iteration_budget_gives_the_same_decision(level):
    for state in positions(3, 21, 5):
        assert decide(state, level, seed=4, iterations=40) == decide(state, level, seed=4, iterations=40)


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_the_decision_does_not_change_when_the_hidden_tiles_are_redealt(level):
    """The bot decides from its view: a state re-dealt consistently with that
    view (other racks, others' face-down tiles and the bag differ) gives the
    same decision with the same bot seed and iteration budget."""
    for n, state in enumerate(positions(3, 33, 6)):
        seat = RONDO.to_move(state)
        view = RONDO.view(state, seat)
        other = RONDO.sample_state(view, seat, random.Random(100 + n))
        assert tile_total(other) == [24] * 5
        assert RONDO.view(other, seat) == view
        hidden = [other.racks[s] for s in range(3) if s != seat] + [other.bag]
        actual = [state.racks[s] for s in range(3) if s != seat] + [state.bag]
        if hidden == actual:
            continue
        assert decide(state, level, seed=9, iterations=60) == decide(other, level, seed=9, iterations=60)


def test_normal_scores_the_best_chain_and_places_with_a_full_rack():
    # Seat 0 holds 5 tiles of the colour of the best space next to the centre.
    board = RONDO.board("blue")
    start = [i for i in range(board.size) if board.start_mask >> i & 1]
    best = max(start, key=lambda i: board.value[i])
    colour = ("yellow", "red", "purple", "blue", "green")[board.colour[best]]
    state = position(RONDO, [[colour] * 5, ["red"]])
    move = decide(state, "normal")
    assert move.kind == "place" and move.count >= 1
    turn = rondo_bots.normal_turn(state)
    assert str(turn[-1]) == "end"
    after = state
    for m in turn:
        after = RONDO.play(after, m)
    assert after.scores[0] >= 5 * board.value[best]


def test_normal_draws_when_it_has_nothing_worth_placing():
    state = position(RONDO, [[], ["red"]])
    assert str(decide(state, "normal")) == "draw"


@pytest.mark.parametrize("levels", [("easy", "normal"), ("strong", "easy", "normal")])
def test_bots_play_whole_matches(levels):
    rng = random.Random(3)
    rngs = [random.Random(s) for s in range(len(levels))]
    state = RONDO.new_match(len(levels))
    while (who := RONDO.to_move(state)) is not None:
        if who == CHANCE:
            outs = RONDO.chance_outcomes(state)
            move = rng.choices([m for m, _ in outs], [w for _, w in outs])[0]
        else:
            move = choose_move(
                "rondo",
                levels[who],
                RONDO.view(state, who),
                who,
                RONDO.legal_moves(state),
                rngs[who],
                iterations=20,
            )
        state = RONDO.play(state, move)
    assert RONDO.outcome(state).reason == "finished"
