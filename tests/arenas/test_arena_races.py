"""Arena scores under racing finishes (README "Arenas"): written once per
match, and two matches of one closed arena that end at the same moment both
count and finish it once. Real threads, real transactions; the PostgreSQL
pass of CI runs them where rows are locked for real (SQLite serialises them)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from arenas import actions
from arenas.models import Arena, ArenaPlayer, ArenaResult
from games import actions as game_actions
from games.models import Match
from tests.factories import every_seat_moves, make_user
from tests.races import race

pytestmark = pytest.mark.django_db(transaction=True)


def _arena_with_matches(players: int) -> tuple[Arena, list[Match]]:
    arena = Arena.objects.create(name="Race", kind="ludo", seats=2, minutes=30, rated=True,
                                 rated_from_players=2, starts_at=timezone.now() - timedelta(minutes=1))
    for i in range(players):
        actions.join(make_user(f"racer{i}"), arena.pk)
    actions.pair_arena(arena.pk)
    return arena, list(Match.objects.filter(arena_match__arena=arena))


def test_both_seats_leaving_at_once_score_the_match_once():
    arena, [match] = _arena_with_matches(2)
    users = [s.user for s in every_seat_moves(match).seats.select_related("user")]
    results = race(*[lambda u=u: game_actions.leave_match(match.public_id, u) for u in users])
    assert sum(not isinstance(r, Exception) for r in results) >= 1
    assert ArenaResult.objects.filter(arena_match__match=match).count() == 2
    points = sorted(ArenaPlayer.objects.filter(arena=arena).values_list("points", flat=True))
    assert points == [0, 2]
    assert match.rating_changes.count() == 2


def test_two_matches_ending_together_after_the_close_both_count_and_finish_the_arena_once():
    arena, matches = _arena_with_matches(4)
    assert len(matches) == 2
    actions.close_due(timezone.now() + timedelta(minutes=31))
    leavers = [every_seat_moves(m).seats.select_related("user").first().user for m in matches]
    race(*[lambda m=m, u=u: game_actions.leave_match(m.public_id, u)
           for m, u in zip(matches, leavers, strict=True)])
    arena.refresh_from_db()
    assert arena.finished_at is not None
    assert ArenaResult.objects.filter(arena_match__arena=arena).count() == 4
    assert sorted(ArenaPlayer.objects.filter(arena=arena).values_list("points", flat=True)) == [0, 0, 2, 2]
    # Free again, never lost from the pool, and never paired after the close.
    assert ArenaPlayer.objects.filter(arena=arena, free_since__isnull=False).count() == 4
    assert actions.pair_arena(arena.pk) == []


def test_an_arena_pairing_and_a_ranked_pairing_at_once_seat_a_player_in_one_match_only():
    """X is free in an arena (with Y) and waits in the ranked queue (with Z):
    both pairings run at once; X ends up in one match, never two
    (matchmaking.together.claim)."""
    from matchmaking.models import QueueEntry
    from matchmaking.queue import actions as queue_actions

    arena = Arena.objects.create(name="Race", kind="ludo", seats=2, minutes=30, rated=False,
                                 starts_at=timezone.now() + timedelta(minutes=5))
    x, y, z = (make_user(n) for n in ("x", "y", "z"))
    for u in (x, y):
        actions.join(u, arena.pk)  # upcoming: nobody paired yet
    Arena.objects.filter(pk=arena.pk).update(starts_at=timezone.now() - timedelta(minutes=1))
    now = timezone.now()
    for u in (x, z):  # waiting in the queue, not yet paired
        QueueEntry.objects.create(user=u, kind="ludo", players=2, rating=1500, joined_at=now, seen_at=now)
    race(lambda: actions.pair_arena(arena.pk), lambda: queue_actions.pair_queues())
    running = Match.objects.filter(seats__user=x, status=Match.Status.ACTIVE)
    assert running.count() == 1, list(running.values_list("public_id", "event"))
