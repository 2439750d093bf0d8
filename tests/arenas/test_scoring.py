"""Arena points (arenas/scoring.py): base points by rank and table size,
shared ranks, wins, the streak, forfeits, void results and the standings
order."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arenas.scoring import Result, Scored, points_for, score, standings_key

W2 = Result(1, 2)  # a win at two seats
L2 = Result(2, 2)  # a loss at two seats


@pytest.mark.parametrize(("seats", "points"), [(2, [2, 0]), (3, [2, 1, 0]), (4, [3, 2, 1, 0])])
def test_base_points_by_rank_at_each_table_size(seats, points):
    assert [points_for(rank, seats) for rank in range(1, seats + 1)] == points


@pytest.mark.parametrize(("rank", "seats", "shared", "points"), [
    (1, 2, 2, 1),  # a two-seat draw: (2 + 0) // 2
    (1, 4, 2, 2),  # shared first of four: (3 + 2) // 2
    (3, 4, 2, 0),  # shared third of four: (1 + 0) // 2
    (2, 4, 2, 1),  # shared second of four: (2 + 1) // 2
    (1, 4, 3, 2),  # three share first of four: (3 + 2 + 1) // 3
    (2, 4, 3, 1),  # three share second of four: (2 + 1 + 0) // 3
    (1, 4, 4, 1),  # all four share: 6 // 4
    (1, 3, 2, 1),  # shared first of three: (2 + 1) // 2
    (2, 3, 2, 0),  # shared second of three: (1 + 0) // 2
    (1, 3, 3, 1),  # all three: 3 // 3
])
def test_a_shared_rank_scores_the_average_of_its_places_rounded_down(rank, seats, shared, points):
    assert points_for(rank, seats, shared) == points


@pytest.mark.parametrize(("rank", "seats", "shared"), [
    (0, 2, 1), (-1, 4, 1), (3, 2, 1), (5, 4, 1),  # no such rank
    (1, 1, 1), (1, 5, 1), (1, 0, 1),  # no such table
    (1, 2, 0), (1, 2, 3), (2, 2, 2), (3, 4, 3), (1, 3, -1),  # no such share
    (1.0, 2, 1), (1, 2.5, 1), (True, 2, 1), ("1", 2, 1),  # not whole numbers
])
def test_impossible_input_raises_value_error(rank, seats, shared):
    with pytest.raises(ValueError):
        points_for(rank, seats, shared)


def test_a_win_is_a_sole_first_place_at_any_table_size():
    assert Result(1, 2).is_win and Result(1, 3).is_win and Result(1, 4).is_win
    assert not Result(1, 2, shared=2).is_win  # a draw
    assert not Result(1, 4, shared=2).is_win
    assert not Result(2, 4).is_win
    assert not Result(1, 2, forfeit=True).is_win
    assert not Result(1, 2, void=True).is_win
    assert score([Result(1, 4), Result(1, 4, 2), Result(1, 3), Result(2, 3)]).wins == 2


def test_the_streak_example_w_w_w_w_l_w_at_two_seats():
    scored = score([W2, W2, W2, W2, L2, W2])
    assert scored == Scored(points=(2, 2, 4, 4, 0, 2), total=14, wins=5, on_fire=False)


def test_on_fire_after_two_wins_in_a_row_until_a_result_that_is_not_a_win():
    assert not score([]).on_fire
    assert not score([W2]).on_fire
    assert score([W2, W2]).on_fire
    assert score([W2, W2, W2]).on_fire
    assert not score([W2, W2, L2]).on_fire
    assert not score([W2, L2, W2]).on_fire


def test_doubling_at_three_and_four_seats():
    w4, w3 = Result(1, 4), Result(1, 3)
    assert score([w4, w4, w4, w3]).points == (3, 3, 6, 4)


def test_a_result_that_is_not_a_win_ends_the_streak_and_scores_normally():
    # Second of four (2 points) while on fire: not doubled; the next win is single.
    w4 = Result(1, 4)
    assert score([w4, w4, w4, Result(2, 4), w4]).points == (3, 3, 6, 2, 3)
    # A draw while on fire: 1 point, streak over.
    assert score([W2, W2, W2, Result(1, 2, 2), W2, W2, W2]).points == (2, 2, 4, 1, 2, 2, 4)
    # A shared first of four is no win either.
    assert score([w4, w4, Result(1, 4, 2), w4]).points == (3, 3, 2, 3)


def test_a_forfeit_scores_zero_whatever_its_rank_and_ends_the_streak():
    assert score([Result(1, 2, forfeit=True)]) == Scored((0,), 0, 0, False)
    forfeits = [Result(rank, 4, forfeit=True) for rank in (1, 2, 4)]
    assert score(forfeits).points == (0, 0, 0)
    scored = score([W2, W2, Result(2, 2, forfeit=True), W2, W2, W2])
    assert scored.points == (2, 2, 0, 2, 2, 4)
    assert scored.wins == 5 and scored.total == 12 and scored.on_fire
    assert not score([W2, W2, Result(1, 2, forfeit=True)]).on_fire


def test_a_forfeit_with_an_impossible_rank_still_raises():
    with pytest.raises(ValueError):
        score([Result(5, 4, forfeit=True)])


def test_a_void_result_scores_nothing_and_neither_extends_nor_breaks_the_streak():
    void_win, void_loss = Result(1, 2, void=True), Result(2, 2, void=True)
    # Does not break it: W W void-loss W still doubles the third win.
    assert score([W2, W2, void_loss, W2]).points == (2, 2, 0, 4)
    # Does not extend it: W void-win W is only two wins in a row.
    scored = score([W2, void_win, W2, W2])
    assert scored.points == (2, 0, 2, 4)
    assert scored.wins == 3 and scored.total == 8
    assert score([W2, W2, void_win]).on_fire
    assert not score([W2, void_win]).on_fire
    assert score([void_win, void_loss]) == Scored((0, 0), 0, 0, False)


def test_a_void_result_is_skipped_even_when_its_rank_is_impossible():
    assert score([Result(0, 0, 0, void=True), W2]).points == (0, 2)


def test_points_line_up_with_results_and_total_is_their_sum():
    results = [Result(1, 3), Result(3, 3), Result(2, 3), Result(1, 3, void=True), Result(1, 3), Result(1, 3),
               Result(1, 3)]
    scored = score(results)
    assert scored.points == (2, 0, 1, 0, 2, 2, 4)
    assert len(scored.points) == len(results) and scored.total == sum(scored.points) == 11


results = st.lists(st.one_of(
    st.builds(Result, st.just(1), st.integers(2, 4)),
    st.builds(Result, st.integers(2, 4), st.just(4)),
    st.builds(Result, st.just(1), st.just(2), st.just(2)),
    st.builds(Result, st.integers(1, 2), st.just(2), forfeit=st.just(True)),
    st.builds(Result, st.integers(1, 2), st.just(2), void=st.just(True)),
), max_size=30)


@given(results)
def test_property_removing_void_results_changes_nothing_else(rs):
    kept = [r for r in rs if not r.void]
    full, without = score(rs), score(kept)
    assert [p for p, r in zip(full.points, rs, strict=True) if not r.void] == list(without.points)
    assert (full.total, full.wins, full.on_fire) == (without.total, without.wins, without.on_fire)


@given(results)
def test_property_each_result_scores_its_base_or_double_for_a_win(rs):
    scored = score(rs)
    for p, r in zip(scored.points, rs, strict=True):
        if r.void or r.forfeit:
            assert p == 0
        elif r.is_win:
            assert p in (points_for(r.rank, r.seats), 2 * points_for(r.rank, r.seats))
        else:
            assert p == points_for(r.rank, r.seats, r.shared)


def test_standings_more_points_then_more_wins_then_earlier_then_name():
    rows = [
        ("zoe", 10, 3, 500.0),
        ("amy", 12, 2, 900.0),  # most points
        ("bob", 10, 4, 800.0),  # 10 points, most wins
        ("cat", 10, 3, 400.0),  # 10 points, 3 wins, reached first
        ("Dan", 10, 3, 500.0),  # ties zoe on all but the name: D before z
        ("eve", 0, 0, math.inf),  # never scored
        ("al", 0, 0, math.inf),
    ]
    ordered = sorted(rows, key=lambda r: standings_key(r[1], r[2], r[3], r[0]))
    assert [r[0] for r in ordered] == ["amy", "bob", "cat", "Dan", "zoe", "al", "eve"]


def test_the_name_tie_break_ignores_case_but_never_ties_two_names():
    assert standings_key(5, 1, 10.0, "Bea") < standings_key(5, 1, 10.0, "carl")
    assert standings_key(5, 1, 10.0, "bea") < standings_key(5, 1, 10.0, "Carl")
    assert standings_key(5, 1, 10.0, "Ann") != standings_key(5, 1, 10.0, "ann")
    # Points outrank wins, wins outrank time.
    assert standings_key(6, 0, 99.0, "z") < standings_key(5, 9, 0.0, "a")
    assert standings_key(5, 2, 99.0, "z") < standings_key(5, 1, 0.0, "a")
