"""An arena's end: closed at its end (no more pairing), finished once its last
match has ended, and its final places written for the profiles."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from arenas import push, standings
from arenas.models import Arena, ArenaPlayer


def close_due(now: datetime | None = None) -> list[Arena]:
    """Close every running arena whose end has come (no pairing after this);
    one with no match still running is finished at once. Returns those closed."""
    now = now or timezone.now()
    closed = []
    for arena_id in Arena.objects.filter(closed_at__isnull=True).values_list("pk", flat=True):
        with transaction.atomic():
            arena = Arena.objects.select_for_update().get(pk=arena_id)
            if arena.closed_at is not None or arena.ends_at > now:
                continue
            arena.closed_at = now
            fields = ["closed_at"]
            if not arena.matches.filter(scored=False).exists():
                arena.finished_at = now
                fields.append("finished_at")
            arena.save(update_fields=fields)
            write_final_ranks(arena)
            transaction.on_commit(lambda a=arena.pk: push.arena_changed(a))
            closed.append(arena)
    return closed


def finish_if_done(arena_id: int, now: datetime | None = None) -> bool:
    """A closed arena whose matches have all ended is finished (podium final).
    True if it was finished now."""
    now = now or timezone.now()
    done = (Arena.objects.filter(pk=arena_id, closed_at__isnull=False, finished_at__isnull=True)
            .exclude(matches__scored=False).update(finished_at=now))
    if done:
        write_final_ranks(Arena.objects.get(pk=arena_id))
        transaction.on_commit(lambda: push.arena_changed(arena_id))
    return bool(done)


def write_final_ranks(arena: Arena) -> None:
    """Store each player's place (``ArenaPlayer.final_rank``, the standings
    rank; None when disqualified) once ``arena`` has finished, for their
    profiles; again after a disqualification or a void changes the order.
    Nothing for an arena not finished."""
    if arena.finished_at is None:
        return
    changed = []
    for row in standings.rows(arena):
        if row.player.final_rank != row.rank:
            row.player.final_rank = row.rank
            changed.append(row.player)
    ArenaPlayer.objects.bulk_update(changed, ["final_rank"], batch_size=500)
