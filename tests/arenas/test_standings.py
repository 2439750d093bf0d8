"""The standings without loading every player (arenas/standings.py): the
ranks and places ``some_rows`` counts in SQL, and the pages ``window`` reads,
are exactly those of the full sort (``rows``), whatever the ties (points,
wins, the very microsecond the points were reached, no points at all, names
that differ only past the lower case, disqualified players); and the sort
token orders rows as ``order_key`` does."""

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import User
from arenas import standings
from arenas.models import Arena, ArenaPlayer

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC)
#: Times a player may have reached their points: equal ones, one microsecond
#: apart, a whole second (stored without a fraction on SQLite), and never.
TIMES = [T0, T0, T0 + timedelta(microseconds=1), T0 + timedelta(microseconds=999_999),
         T0 + timedelta(seconds=1), T0 - timedelta(seconds=1), None, None]
#: Names whose order by Python's lower case is not ASCII's (É after z; İ lowers
#: to two characters), with no two equal in lower case (unique on every database).
NAMES = ["ann", "Bob", "bob2", "cat", "Émile", "ezra", "Zoë", "zed", "İnci", "iris", "Ärger", "aaron",
         "x_1", "X-2", "m.n", "m@n", "dan", "Dana", "eve", "EVA"]

players = st.lists(
    st.tuples(st.sampled_from(NAMES), st.integers(0, 3), st.integers(0, 2), st.sampled_from(TIMES),
              st.sampled_from(["active"] * 4 + ["paused", "withdrawn", "disqualified"])),
    min_size=1, max_size=len(NAMES), unique_by=lambda p: p[0].lower())


def _arena_of(entries, tag: str) -> Arena:
    arena = Arena.objects.create(name=f"Ties {tag}", kind="ludo", seats=2, minutes=60,
                                 starts_at=timezone.now() - timedelta(minutes=5))
    users = User.objects.bulk_create(
        User(username=f"{name}{tag}", email=f"{i}.{tag}@example.com", password="!")
        for i, (name, *_rest) in enumerate(entries))
    ArenaPlayer.objects.bulk_create(
        ArenaPlayer(arena=arena, user=u, joined_at=T0, rating=1500, points=pts, wins=wins, reached_at=at,
                    status=status)
        for u, (_name, pts, wins, at, status) in zip(users, entries, strict=True))
    return arena


def _cleanup(arena):
    User.objects.filter(arena_entries__arena=arena).delete()
    arena.delete()


def _seen(rows):
    return [(r.player.pk, r.rank, r.pos, r.token) for r in rows]


_counter = iter(range(10**9))


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow], deadline=None)
@given(entries=players, cuts=st.lists(st.integers(1, 4), min_size=1, max_size=30),
       windows=st.lists(st.tuples(st.integers(0, 22), st.integers(1, 22)), min_size=1, max_size=4))
def test_counted_ranks_and_pages_equal_the_full_sort_whatever_the_ties(entries, cuts, windows):
    arena = _arena_of(entries, f"t{next(_counter)}")
    try:
        full = standings.rows(arena)
        by_pk = {r.player.pk: r for r in full}
        # The full sort itself: places 1.., ranks for those not disqualified, who all come first.
        assert [r.pos for r in full] == list(range(1, len(full) + 1))
        assert [r.rank for r in full if r.rank] == list(range(1, 1 + sum(1 for r in full if r.rank)))
        # Ranked a table at a time (1 to 4 players, as a match's end pushes them), in any grouping.
        pks = [r.player.pk for r in reversed(full)]
        i = 0
        for size in cuts * (len(pks) // len(cuts) + 1):
            if i >= len(pks):
                break
            group = pks[i:i + size]
            i += size
            got = standings.some_rows(arena, group)
            assert sorted(_seen(got)) == sorted(_seen(by_pk[pk] for pk in group))
        # Pages (the arena page's windows): exactly that slice of the full sort.
        for start, count in windows:
            assert _seen(standings.window(arena, start, count)) == _seen(full[start:start + count])
        # The token orders as the full sort (compared code point by code point).
        assert sorted(r.token for r in full) == [r.token for r in full]
    finally:
        _cleanup(arena)


def test_the_token_orders_names_equal_in_lower_case_by_the_name_as_given():
    arena = Arena(pk=1, name="x", kind="ludo", seats=2, starts_at=T0)
    a, b = (ArenaPlayer(arena=arena, user=User(username=n), points=3, wins=1, reached_at=T0)
            for n in ("Ab", "ab"))
    assert standings.order_key(a) < standings.order_key(b) and standings.token(a) < standings.token(b)
    prefix = ArenaPlayer(arena=arena, user=User(username="ab"), points=3, wins=1, reached_at=T0)
    longer = ArenaPlayer(arena=arena, user=User(username="ab_"), points=3, wins=1, reached_at=T0)
    assert standings.token(prefix) < standings.token(longer)  # "ab" before "ab_", as in Python
    late = ArenaPlayer(arena=arena, user=User(username="aa"), points=3, wins=1,
                       reached_at=T0 + timedelta(microseconds=1))
    assert standings.token(prefix) < standings.token(late)  # a microsecond earlier outranks the name


def test_the_podium_and_a_page_of_a_large_tie_read_only_what_they_need(django_assert_max_num_queries):
    # 300 players with no points at all: one tie, ordered by name only.
    entries = [(f"p{i:03d}", 0, 0, None, "active") for i in range(300)]
    entries[7] = ("p007", 2, 1, T0, "active")
    arena = _arena_of(entries, "big")
    full = standings.rows(arena)
    with django_assert_max_num_queries(4):
        page = standings.window(arena, 100, 100)
    assert _seen(page) == _seen(full[100:200])
    with django_assert_max_num_queries(4):
        top = standings.podium(arena)
    assert [r.player.user.username for r in top] == ["p007big"]  # the others have no points
    with django_assert_max_num_queries(4):
        (row,) = standings.some_rows(arena, [full[150].player.pk])
    assert (row.rank, row.pos) == (151, 151)


def test_pages_and_their_links():
    assert standings.pages(0) == 1 and standings.pages(100) == 1 and standings.pages(101) == 2
    assert standings.page_links(1, 2) == [1, 2]
    assert standings.page_links(1, 10) == [1, 2, 3, None, 10]
    assert standings.page_links(6, 10) == [1, None, 4, 5, 6, 7, 8, None, 10]
    assert standings.page_links(10, 10) == [1, None, 8, 9, 10]
    for junk in (None, "", "x", "0", "-3", "1.5", "9" * 5000):
        assert standings.page_number(junk) == 1
    assert standings.page_number("7") == 7
