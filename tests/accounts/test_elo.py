"""The Elo math (accounts/elo.py): textbook values, N = 2 is standard Elo,
pairwise sums for 3-4 seats, K by games played, the floor, display."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounts import elo


def test_equal_ratings_with_k_20_move_ten_points_each_way():
    assert elo.rating_deltas([1500, 1500], [1, 2], [20, 20]) == pytest.approx([10, -10])


def test_a_400_point_gap_expects_0_909():
    assert elo.expected_score(1900, 1500) == pytest.approx(0.909, abs=5e-4)
    assert elo.expected_score(1500, 1900) == pytest.approx(0.091, abs=5e-4)


def test_a_draw_between_equals_changes_nothing():
    assert elo.rating_deltas([1500, 1500], [1, 1], [20, 20]) == pytest.approx([0, 0])


@given(a=st.floats(100, 3000), b=st.floats(100, 3000), k=st.sampled_from([20.0, 40.0]),
       a_wins=st.booleans())
def test_two_seats_is_exactly_standard_elo(a, b, k, a_wins):
    score = 1.0 if a_wins else 0.0
    standard = k * (score - 1 / (1 + 10 ** ((b - a) / 400)))
    da, _ = elo.rating_deltas([a, b], [1, 2] if a_wins else [2, 1], [k, k])
    assert da == pytest.approx(standard)


@given(ratings=st.lists(st.floats(100, 3000), min_size=2, max_size=4),
       data=st.data(), k=st.sampled_from([20.0, 40.0]))
def test_deltas_sum_to_zero_when_k_is_equal(ratings, data, k):
    ranks = data.draw(st.lists(st.integers(1, 4), min_size=len(ratings), max_size=len(ratings)))
    assert sum(elo.rating_deltas(ratings, ranks, [k] * len(ratings))) == pytest.approx(0, abs=1e-9)


def test_four_seats_sum_pairwise_games_with_k_over_n_minus_1():
    # Equal ratings: every pair expects 0.5. The winner beats 3 (3 * 0.5 = 1.5),
    # two share second (one win, one draw, one loss: 0), the last loses 3 (-1.5).
    deltas = elo.rating_deltas([1500] * 4, [1, 2, 2, 4], [30] * 4)
    assert deltas == pytest.approx([15, 0, 0, -15])


def test_k_is_40_while_provisional_then_20():
    assert elo.k_factor(0) == elo.k_factor(19) == 40
    assert elo.k_factor(20) == elo.k_factor(500) == 20
    assert elo.is_provisional(19) and not elo.is_provisional(20)


def test_new_ratings_use_each_players_k_and_the_floor():
    # A provisional newcomer (K 40) beats an established player (K 20), equal ratings.
    assert elo.new_ratings([1500, 1500], [1, 2], [0, 50]) == pytest.approx([1520, 1490])
    # The floor applies after the update.
    low = elo.new_ratings([105, 105], [2, 1], [0, 0])
    assert low[0] == elo.RATING_FLOOR and low[1] == pytest.approx(125)


def test_bad_input_is_refused():
    with pytest.raises(ValueError):
        elo.rating_deltas([1500], [1], [20])
    with pytest.raises(ValueError):
        elo.rating_deltas([1500, 1500], [1], [20, 20])


def test_display_rounds_and_marks_provisional():
    assert elo.display(1500.0, 0) == "1500?"
    assert elo.display(1612.6, 25) == "1613"
