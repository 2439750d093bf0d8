"""The pure arena pairing function (arenas/pairing.py): full tables every
wave, the most recently freed left over, rating-near tables, repeats
repaired where the pool allows, seating and table order, duplicate keys."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arenas.pairing import Free, pair, repeats


def spread(tables, rating):
    return sum(max(rating[k] for k in t) - min(rating[k] for k in t) for t in tables)


def test_every_call_seats_all_full_tables_and_leaves_the_most_recently_freed():
    waits = {"a": 30, "b": 2, "c": 40, "d": 1, "e": 25, "f": 0.5, "g": 12, "h": 7}
    free = [Free(k, 1500 + 10 * i, w) for i, (k, w) in enumerate(waits.items())]
    for size, left in ((2, set()), (3, {"d", "f"}), (4, set())):
        tables = pair(free, size)
        assert len(tables) == 8 // size
        assert set(waits) - {k for t in tables for k in t} == left
    tables = pair(free[:7], 4)  # 7 players: one table, the 3 most recently freed wait
    assert {k for t in tables for k in t} == {"a", "c", "e", "g"}


def test_the_left_over_ignores_rating_distance():
    # f is far from everyone in rating but has waited longest: seated anyway;
    # c is close to a and b but was freed last: left over.
    free = [Free("a", 1500, 10), Free("b", 1510, 9), Free("c", 1505, 0), Free("f", 2400, 60)]
    assert pair(free, 3) == [("f", "a", "b")]


def test_ties_in_time_free_leave_the_higher_rating_then_the_later_entry_over():
    free = [Free("a", 1600, 5), Free("b", 1500, 5), Free("c", 1550, 5)]
    assert pair(free, 2) == [("b", "c")]
    free = [Free("a", 1500, 5), Free("b", 1500, 5), Free("c", 1500, 5)]
    assert pair(free, 2) == [("a", "b")]
    assert pair(list(reversed(free)), 2) == [("c", "b")]


def test_too_few_players_make_no_table():
    assert pair([], 2) == []
    assert pair([Free("a", 1500, 9)], 2) == []
    assert pair([Free(k, 1500, 9) for k in "abc"], 4) == []


def test_tables_are_consecutive_in_rating_lowest_first():
    rng = random.Random(3)
    ratings = [1100, 1900, 1500, 1520, 1120, 1880, 1490, 1130]
    free = [Free(f"p{i}", r, rng.uniform(0, 60)) for i, r in enumerate(ratings)]
    tables = pair(free, 2)
    rating = {f.key: f.rating for f in free}
    assert [sorted(rating[k] for k in t) for t in tables] == [[1100, 1120], [1130, 1490], [1500, 1520],
                                                             [1880, 1900]]


@pytest.mark.parametrize("size", [2, 3, 4])
def test_the_rating_cut_has_a_much_smaller_spread_than_a_shuffled_cut(size):
    rng = random.Random(size)
    free = [Free(i, rng.gauss(1500, 300), rng.uniform(0, 60)) for i in range(400)]
    rating = {f.key: f.rating for f in free}
    tables = pair(free, size)
    seated = [k for t in tables for k in t]
    rng.shuffle(seated)
    shuffled = [seated[i:i + size] for i in range(0, len(seated), size)]
    assert spread(tables, rating) * 10 < spread(shuffled, rating)
    averages = [sum(rating[k] for k in t) / size for t in tables]
    assert averages == sorted(averages)


def test_seating_within_a_table_is_longest_free_first():
    free = [Free("a", 1500, 3), Free("b", 1510, 50), Free("c", 1520, 20), Free("d", 1530, 7)]
    assert pair(free, 4) == [("b", "c", "d", "a")]
    assert pair(free, 2) == [("b", "a"), ("c", "d")]


def test_three_and_four_seat_tables():
    free = [Free(k, 1500 + 10 * i, 100 - i) for i, k in enumerate("abcdefghij")]
    assert pair(free, 3) == [("a", "b", "c"), ("d", "e", "f"), ("g", "h", "i")]
    assert pair(free, 4) == [("a", "b", "c", "d"), ("e", "f", "g", "h")]


def test_a_repeat_is_avoided_by_passing_a_player_over_to_the_next_table():
    # The plain cut would seat a with b and c with d: both just met.
    free = [Free("a", 1500, 9, frozenset({"b"})), Free("b", 1510, 8, frozenset({"a"})),
            Free("c", 1520, 7, frozenset({"d"})), Free("d", 1530, 6, frozenset({"c"}))]
    assert pair(free, 2, avoid_repeats=False) == [("a", "b"), ("c", "d")]
    assert pair(free, 2) == [("a", "c"), ("b", "d")]
    # Only b met a: a passes b over for c; b starts the next table.
    last = {"b": {"a"}}
    free = [Free(k, 1500 + 10 * i, 9 - i, frozenset(last.get(k, ()))) for i, k in enumerate("abcdef")]
    assert pair(free, 2) == [("a", "c"), ("b", "d"), ("e", "f")]


def test_a_repeat_at_the_last_table_is_repaired_by_a_swap_with_a_table_below():
    # Nobody is above c and d to pass over to: the swap between the closest
    # ratings (b 1510 and c 1520) that leaves both tables clean.
    free = [Free("a", 1500, 9), Free("b", 1510, 8), Free("c", 1520, 7, frozenset({"d"})),
            Free("d", 1530, 6, frozenset({"c"}))]
    assert pair(free, 2, avoid_repeats=False) == [("a", "b"), ("c", "d")]
    assert pair(free, 2) == [("a", "c"), ("b", "d")]


def test_a_one_sided_last_opponent_still_makes_a_repeat():
    # Only b remembers a (say a's entry was reset): still a repeat.
    free = [Free("a", 1500, 9), Free("b", 1510, 8, frozenset({"a"})), Free("c", 1520, 7), Free("d", 1530, 6)]
    tables = pair(free, 2)
    assert repeats(tables, {"b": {"a"}}) == 0
    assert tables == [("a", "c"), ("b", "d")]


def test_a_repeat_stays_when_the_pool_does_not_allow_another_table():
    free = [Free("a", 1500, 9, frozenset({"b"})), Free("b", 1510, 8, frozenset({"a"}))]
    assert pair(free, 2) == [("a", "b")]
    # Four who all just met at one table of four: every table of two repeats.
    everyone = frozenset("abcd")
    free = [Free(k, 1500 + i, 9 - i, everyone - {k}) for i, k in enumerate("abcd")]
    tables = pair(free, 2)
    assert len(tables) == 2 and repeats(tables, {f.key: f.last_opponents for f in free}) == 2


def test_a_swap_that_would_make_a_new_repeat_is_not_taken():
    # a-b met, and d met a, b and c. The cut seats (a, c) then (b, d), a
    # repeat. Swapping d and c would clean (b, d) but seat d with a: not taken.
    last = {"a": {"b", "d"}, "b": {"a", "d"}, "c": {"d"}, "d": {"a", "b", "c"}}
    free = [Free(k, 1500 + 10 * i, 9 - i, frozenset(last[k])) for i, k in enumerate("abcd")]
    assert pair(free, 2) == [("a", "c"), ("b", "d")]
    assert repeats(pair(free, 2), last) == 1


def test_never_more_repeats_than_the_plain_cut_repaired():
    # Passing over gives (a, b) (c, f) (d, e), and no swap cleans d-e. The
    # plain cut (a, b) (c, d) (e, f), repaired by swapping c and a, leaves none.
    last = {"b": {"d", "e"}, "c": {"d", "e"}, "d": {"e"}}
    free = [Free(k, 1500 + 10 * i, 9 - i, frozenset(last.get(k, ()))) for i, k in enumerate("abcdef")]
    assert pair(free, 2) == [("b", "c"), ("a", "d"), ("e", "f")]


def test_the_repeat_avoidance_reaches_three_tables_away_but_no_further():
    # Tables of two in rating order; table 0 (p0, p1) repeats, and p0 and p1
    # also met everyone on tables 1 and 2.
    keys = [f"p{i}" for i in range(12)]
    near = set(keys[2:6])
    last = {"p0": {"p1"} | near, "p1": {"p0"} | near}
    free = [Free(k, 1000 + 100 * i, 60 - i, frozenset(last.get(k, ()))) for i, k in enumerate(keys)]
    tables = pair(free, 2)
    assert repeats(tables, last) == 0
    # p0 passes p1 to p5 over for p6, three tables' worth ahead; p1 takes p7.
    assert ("p0", "p6") in tables and ("p1", "p7") in tables
    # One table further, out of reach of the cut and of the swaps: the repeat stays.
    near = set(keys[2:8])
    last = {"p0": {"p1"} | near, "p1": {"p0"} | near}
    free = [Free(k, 1000 + 100 * i, 60 - i, frozenset(last.get(k, ()))) for i, k in enumerate(keys)]
    assert repeats(pair(free, 2), last) == 1


def test_a_four_seat_table_with_two_repeats_is_repaired_with_two_swaps():
    # a-b and c-d met; the neighbouring table e..h is clean.
    last = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}}
    free = [Free(k, 1500 + 10 * i, 60 - i, frozenset(last.get(k, ()))) for i, k in enumerate("abcdefgh")]
    assert pair(free, 4, avoid_repeats=False) == [("a", "b", "c", "d"), ("e", "f", "g", "h")]
    # a passes b over, takes c, passes d over, takes e and f.
    assert pair(free, 4) == [("a", "c", "e", "f"), ("b", "d", "g", "h")]


def test_avoid_repeats_false_is_the_plain_cut():
    rng = random.Random(9)
    free = [Free(i, rng.gauss(1500, 300), rng.uniform(0, 60)) for i in range(100)]
    plain = pair(free, 2)
    last = {k: {o} for a, b in plain for k, o in ((a, b), (b, a))}
    again = [Free(f.key, f.rating, f.waited, frozenset(last[f.key])) for f in free]
    assert pair(again, 2, avoid_repeats=False) == plain
    assert repeats(plain, last) == 50
    assert repeats(pair(again, 2), last) == 0


def test_a_key_given_twice_counts_once_its_first_entry():
    free = [Free("a", 1500, 1), Free("b", 1510, 5), Free("a", 2500, 99), Free("c", 1520, 3)]
    # a counts with waited 1 (the first entry): the shortest, so a is left over.
    assert pair(free, 2) == [("b", "c")]
    assert pair([Free("a", 1500, 5), Free("a", 1500, 5)], 2) == []


@pytest.mark.parametrize("size", [1, 0, -2])
def test_a_table_needs_at_least_two_seats(size):
    with pytest.raises(ValueError):
        pair([Free("a", 1500, 1), Free("b", 1500, 1)], size)


def test_repeats_counts_tables_with_a_last_opponent_either_way():
    last = {"a": {"b"}, "c": {"x"}, "e": ["a", "e"]}
    assert repeats([("a", "b"), ("c", "d"), ("e", "f")], last) == 1
    assert repeats([("b", "a")], last) == 1
    assert repeats([("e", "f")], last) == 0  # oneself does not count
    assert repeats([], last) == 0


players = st.lists(
    st.builds(Free, st.integers(0, 40), st.floats(0, 3000), st.floats(0, 600),
              st.frozensets(st.integers(0, 40), max_size=3)),
    max_size=60)


@settings(max_examples=300, deadline=None)
@given(players, st.integers(2, 4), st.booleans())
def test_property_full_tables_nobody_twice_left_over_waited_least(free, size, avoid):
    tables = pair(free, size, avoid_repeats=avoid)
    first = {}
    for f in free:
        first.setdefault(f.key, f)
    assert len(tables) == len(first) // size
    assert all(len(t) == size and len(set(t)) == size for t in tables)
    seated = [k for t in tables for k in t]
    assert len(seated) == len(set(seated))
    assert set(seated) <= set(first)
    left = set(first) - set(seated)
    assert len(left) == len(first) % size
    if left and seated:
        assert max(first[k].waited for k in left) <= min(first[k].waited for k in seated)
    for t in tables:  # longest free first
        waits = [first[k].waited for k in t]
        assert waits == sorted(waits, reverse=True)


@settings(max_examples=200, deadline=None)
@given(players, st.integers(2, 4))
def test_property_the_repair_never_adds_repeats_and_keeps_the_same_players(free, size):
    last = {}
    for f in free:
        last.setdefault(f.key, f.last_opponents)
    plain = pair(free, size, avoid_repeats=False)
    repaired = pair(free, size)
    assert {k for t in plain for k in t} == {k for t in repaired for k in t}
    assert repeats(repaired, last) <= repeats(plain, last)
