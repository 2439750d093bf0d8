"""The pure arena pairing function (arenas/pairing.py): full tables every
wave, the most recently freed left over (ties: fewer plays first), rating-near
tables, repeats repaired where the pool allows (swapping in a player tied for
the last seats), seating and table order, duplicate keys."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arenas.pairing import TIE_SECONDS, Free, pair, repeats


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


def test_ties_in_time_free_and_plays_leave_the_higher_rating_then_the_later_entry_over():
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


def test_ties_in_time_free_go_to_the_fewer_matches_played():
    # a and c were freed together; a is rated lower but has played more: c sits.
    free = [Free("a", 1400, 0, played=5), Free("b", 1500, 10, played=4), Free("c", 1600, 0, played=3)]
    assert pair(free, 2) == [("b", "c")]
    assert pair([Free("a", 1400, 0, played=3), *free[1:]], 2) == [("b", "a")]  # equal plays: the rating
    # Plays only break ties: a was freed half a second earlier and sits.
    free = [Free("a", 1400, 0.5, played=9), Free("b", 1500, 10), Free("c", 1600, 0)]
    assert pair(free, 2) == [("b", "a")]


def test_free_takes_played_as_an_optional_fifth_field():
    assert Free("a", 1500, 3, frozenset({"b"})) == Free("a", 1500, 3, frozenset({"b"}), 0)
    assert Free("a", 1500, 3).played == 0


# The tester's three-player, two-seat arena (ratings alice < bob < carol).
def three(alice_waited=0.0, carol_waited=0.0, **played):
    return [Free("alice", 1400, alice_waited, frozenset({"carol"}), played.get("alice", 0)),
            Free("bob", 1500, 12.0, frozenset({"alice"}), played.get("bob", 0)),
            Free("carol", 1600, carol_waited, frozenset({"alice"}), played.get("carol", 0))]


def test_bob_waiting_meets_carol_not_alice_his_last_opponent():
    # bob waited (his last opponent: alice); alice and carol, who just played
    # each other, were freed together. The plain order seats alice (the lower
    # rating): a repeat for bob. bob-carol is clean, so alice is left over.
    free = three()
    assert pair(free, 2, avoid_repeats=False) == [("bob", "alice")]
    assert pair(free, 2) == [("bob", "carol")]
    assert pair(list(reversed(free)), 2) == [("bob", "carol")]
    # Whoever has fewer plays, and freed a little apart (within the tie window).
    assert pair(three(alice=0, carol=4), 2) == [("bob", "carol")]
    assert pair(three(alice_waited=0.6, carol_waited=0.0), 2) == [("bob", "carol")]
    assert pair(three(alice_waited=0.0, carol_waited=0.6), 2) == [("bob", "carol")]


def test_the_swap_with_a_leftover_stays_inside_the_tie_window():
    # alice was freed 1.5 s before carol: she has waited longer, so she sits,
    # repeat or not (nobody waits more than a wave while a table can be formed).
    assert pair(three(alice_waited=1.5, carol_waited=0.0), 2) == [("bob", "alice")]
    assert pair(three(alice_waited=TIE_SECONDS, carol_waited=0.0), 2) == [("bob", "carol")]


def test_carol_waiting_meets_bob_when_alice_and_bob_just_played():
    free = [Free("alice", 1400, 0, frozenset({"bob"})), Free("bob", 1500, 0, frozenset({"alice"})),
            Free("carol", 1600, 20, frozenset({"alice"}))]
    assert pair(free, 2, avoid_repeats=False) == [("carol", "alice")]
    assert pair(free, 2) == [("carol", "bob")]


def test_nobody_tied_for_the_last_seat_keeps_the_repeat():
    # All three just met at one table: no clean table of two.
    everyone = frozenset({"a", "b", "c"})
    free = [Free(k, 1500 + i, 0, everyone - {k}) for i, k in enumerate("abc")]
    assert pair(free, 2) == [("a", "b")]


def play(rounds, avoid_repeats, tell_played=True):
    """A three-player, two-seat arena: every match ends after 10 s and frees
    its two players together. Returns (matches played by each, repeats)."""
    rating = {"alice": 1400, "bob": 1500, "carol": 1600}
    since = dict.fromkeys(rating, 0.0)
    last = {k: frozenset() for k in rating}
    played = dict.fromkeys(rating, 0)
    now, repeated = 0.0, 0
    for _ in range(rounds):
        free = [Free(k, rating[k], now - since[k], last[k], played[k] if tell_played else 0) for k in rating]
        (table,) = pair(free, 2, avoid_repeats=avoid_repeats)
        repeated += repeats([table], last)
        now += 10
        for k in table:
            played[k] += 1
            since[k] = now
            last[k] = frozenset(table) - {k}
    return played, repeated


def test_a_three_player_arena_has_no_repeats_and_shares_the_seats():
    played, repeated = play(30, avoid_repeats=True)
    assert repeated == 0
    assert played == {"alice": 20, "bob": 20, "carol": 20}
    # Without repeat avoidance, the plays alone take turns at the seat.
    played, _ = play(30, avoid_repeats=False)
    assert max(played.values()) - min(played.values()) <= 1
    # The tester's arena (no plays told, no repeat avoidance): alice always sat.
    played, _ = play(9, avoid_repeats=False, tell_played=False)
    assert played == {"alice": 9, "bob": 5, "carol": 4}


def test_a_table_swap_is_preferred_to_a_swap_with_the_leftover():
    # d and e were freed together; the plain order seats d (lower rating) with
    # c, whom d just met. A swap with the table below cleans it: e still waits.
    free = [Free("a", 1500, 9), Free("b", 1510, 8), Free("c", 1520, 7, frozenset({"d"})),
            Free("d", 1530, 0, frozenset({"c"})), Free("e", 1540, 0)]
    assert pair(free, 2) == [("a", "c"), ("b", "d")]


def test_a_leftover_tied_for_the_last_seat_repairs_what_no_table_swap_can():
    # d met a, b and c: no swap between (a, b) and (c, d) is clean. e, freed
    # with d, takes d's seat; d waits.
    free = [Free("a", 1500, 9, frozenset({"d"})), Free("b", 1510, 8, frozenset({"d"})),
            Free("c", 1520, 7, frozenset({"d"})), Free("d", 1530, 0, frozenset({"a", "b", "c"})),
            Free("e", 1540, 0)]
    assert pair(free, 2, avoid_repeats=False) == [("a", "b"), ("c", "d")]
    assert pair(free, 2) == [("a", "b"), ("c", "e")]
    # d freed 2 s before e: d has waited longer and sits, repeat or not.
    free[3] = Free("d", 1530, 2, frozenset({"a", "b", "c"}))
    assert repeats(pair(free, 2), {"d": {"a", "b", "c"}}) == 1


def test_a_three_seat_table_takes_the_clean_one_of_two_tied_leftovers():
    # 5 players, one table of 3: two are left over. c, d and e were freed
    # together; the plain order seats c (the lowest rating), who just met b.
    # d is closer in rating but met a: e takes the seat.
    free = [Free("a", 1500, 9, frozenset({"d"})), Free("b", 1510, 8), Free("c", 1400, 0, frozenset({"b"})),
            Free("d", 1450, 0), Free("e", 1700, 0)]
    assert pair(free, 3, avoid_repeats=False) == [("a", "b", "c")]
    assert pair(free, 3) == [("a", "b", "e")]


times = st.one_of(st.floats(0, 600), st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0]))
players = st.lists(
    st.builds(Free, st.integers(0, 40), st.floats(0, 3000), times,
              st.frozensets(st.integers(0, 40), max_size=3), st.integers(0, 6)),
    max_size=60)
# Small crowded pools, most freed within a few seconds, many who just met:
# the tie band at work.
crowded = st.lists(
    st.builds(Free, st.integers(0, 6), st.sampled_from([1400, 1500, 1600, 1700]),
              st.sampled_from([0.0, 0.3, 0.6, 0.9, 1.0, 1.2, 1.6, 2.0, 2.4, 9.0]),
              st.frozensets(st.integers(0, 6), min_size=1, max_size=2), st.integers(0, 3)),
    min_size=3, max_size=9)


def firsts(free):
    first = {}
    for f in free:
        first.setdefault(f.key, f)
    return first


@settings(max_examples=300, deadline=None)
@given(st.one_of(players, crowded), st.integers(2, 4), st.booleans())
def test_property_full_tables_nobody_twice_left_over_waited_least(free, size, avoid):
    tables = pair(free, size, avoid_repeats=avoid)
    first = firsts(free)
    assert len(tables) == len(first) // size
    assert all(len(t) == size and len(set(t)) == size for t in tables)
    seated = [k for t in tables for k in t]
    assert len(seated) == len(set(seated))
    assert set(seated) <= set(first)
    left = set(first) - set(seated)
    assert len(left) == len(first) % size
    if left and seated:
        gap = max(first[k].waited for k in left) - min(first[k].waited for k in seated)
        assert gap <= (TIE_SECONDS if avoid else 0)  # never longer, beyond the tie window
    for t in tables:  # longest free first
        waits = [first[k].waited for k in t]
        assert waits == sorted(waits, reverse=True)


@settings(max_examples=300, deadline=None)
@given(st.one_of(players, crowded), st.integers(2, 4))
def test_property_the_repair_never_adds_repeats_and_trades_only_tied_players(free, size):
    first = firsts(free)
    last = {k: f.last_opponents for k, f in first.items()}
    plain = pair(free, size, avoid_repeats=False)
    repaired = pair(free, size)
    assert repeats(repaired, last) <= repeats(plain, last)
    was, now = {k for t in plain for k in t}, {k for t in repaired for k in t}
    traded = [first[k].waited for k in was ^ now]
    assert len(was - now) == len(now - was)
    assert not traded or max(traded) - min(traded) <= TIE_SECONDS
    if not repeats(plain, last):
        assert repaired == plain


@settings(max_examples=300, deadline=None)
@given(st.floats(0, 100), st.floats(0, 0.99), st.floats(0, 0.99), st.floats(0, 60),
       st.lists(st.frozensets(st.sampled_from("abc"), max_size=2), min_size=3, max_size=3),
       st.permutations([1400, 1500, 1600]), st.lists(st.integers(0, 3), min_size=3, max_size=3))
def test_property_three_players_the_longest_free_meets_a_clean_one_of_two_tied(
        base, b_after, c_after, a_before, last, ratings, played):
    # a was freed first; b and c within the tie window: if a can sit with
    # either of them without a repeat, a does.
    waited = {"b": base + b_after, "c": base + c_after}
    waited["a"] = max(waited.values()) + a_before
    free = [Free(k, r, waited[k], lo, n) for k, r, lo, n in zip("abc", ratings, last, played, strict=True)]
    lasts = {f.key: f.last_opponents for f in free}
    (table,) = pair(free, 2)
    if repeats([("a", "b")], lasts) == 0 or repeats([("a", "c")], lasts) == 0:
        assert repeats([table], lasts) == 0
