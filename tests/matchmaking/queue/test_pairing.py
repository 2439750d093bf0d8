"""The pure pairing function (matchmaking/queue/pairing.py): windows, allowed
tables, longest wait first, smallest spread, nobody seated twice."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matchmaking.queue.pairing import Waiting, pair, window


def test_the_window_starts_at_100_grows_50_every_10_seconds_up_to_600():
    assert window(0) == window(9.9) == 100
    assert window(10) == 150 and window(25) == 200
    assert window(100) == 600 and window(10_000) == 600
    assert window(-5) == 100


def test_two_close_newcomers_are_paired():
    assert pair([Waiting("a", 1500, 0), Waiting("b", 1590, 1)], 2) == [("b", "a")]


def test_a_gap_wider_than_both_windows_waits_until_the_windows_grow():
    assert pair([Waiting("a", 1500, 0), Waiting("b", 1650, 0)], 2) == []
    assert pair([Waiting("a", 1500, 10), Waiting("b", 1650, 12)], 2) == [("b", "a")]


def test_the_smallest_window_at_the_table_decides():
    # a's window is 200 (20 s); b just came (100): a spread of 150 is too much for b.
    assert pair([Waiting("a", 1500, 20), Waiting("b", 1650, 0)], 2) == []


def test_the_longest_waiting_player_is_seated_first_at_the_smallest_spread():
    waiting = [Waiting("b", 1560, 0), Waiting("c", 1530, 1), Waiting("a", 1500, 30),
               Waiting("d", 1510, 2)]
    assert pair(waiting, 2) == [("a", "d"), ("c", "b")]


def test_nobody_is_seated_twice_even_if_listed_twice():
    waiting = [Waiting("a", 1500, 5), Waiting("a", 1500, 5), Waiting("b", 1510, 1)]
    assert pair(waiting, 2) == [("a", "b")]
    assert pair([Waiting("a", 1500, 5), Waiting("a", 1500, 5)], 2) == []


def test_tables_of_three_and_four():
    waiting = [Waiting(k, 1500 + 10 * i, i) for i, k in enumerate("abcdefg")]
    assert pair(waiting, 3) == [("g", "f", "e"), ("d", "c", "b")]
    assert pair(waiting, 4) == [("g", "f", "e", "d")]


def test_a_neighbour_with_a_narrow_window_is_passed_over():
    # q sits right beside p but has waited 0 s (window 100): a table with q
    # and r spreads 200. p, r and s (all with 600) make an allowed table.
    waiting = [Waiting("p", 1500, 100), Waiting("q", 1510, 0), Waiting("r", 1700, 100),
               Waiting("s", 1750, 99)]
    assert pair(waiting, 3) == [("p", "r", "s")]


def test_a_table_needs_at_least_two_seats():
    with pytest.raises(ValueError):
        pair([Waiting("a", 1500, 0)], 1)


def allowed(table):
    spread = max(t.rating for t in table) - min(t.rating for t in table)
    return spread <= min(window(t.waited) for t in table)


def spread(table):
    return max(t.rating for t in table) - min(t.rating for t in table)


players = st.lists(
    st.tuples(st.integers(1000, 2200), st.integers(0, 120)), min_size=0, max_size=12,
).map(lambda rows: [Waiting(i, float(r), float(w) + i / 100) for i, (r, w) in enumerate(rows)])


@given(waiting=players, size=st.sampled_from([2, 3, 4]))
def test_every_table_is_allowed_and_nobody_sits_twice(waiting, size):
    by_key = {w.key: w for w in waiting}
    tables = pair(waiting, size)
    seated = [k for t in tables for k in t]
    assert len(seated) == len(set(seated))
    for t in tables:
        assert len(t) == size and allowed([by_key[k] for k in t])


@given(waiting=players, size=st.sampled_from([2, 3, 4]))
def test_the_longest_waiting_player_gets_the_smallest_allowed_spread(waiting, size):
    """Against brute force over every table that holds the longest-waiting player."""
    if not waiting:
        return
    first = max(waiting, key=lambda w: w.waited)
    others = [w for w in waiting if w is not first]
    options = [spread((first, *c)) for c in itertools.combinations(others, size - 1)
               if allowed((first, *c))]
    tables = pair(waiting, size)
    mine = [t for t in tables if first.key in t]
    if not options:
        assert not mine
        return
    by_key = {w.key: w for w in waiting}
    assert tables[0] == mine[0]
    assert spread([by_key[k] for k in mine[0]]) == min(options)
