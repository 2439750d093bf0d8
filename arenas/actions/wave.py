"""The arenas' wave (Celery beat, every PARLOUR_ARENA_WAVE_SECONDS)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from arenas.actions.create import create_due, open_due
from arenas.actions.finish import close_due, finish_if_done
from arenas.actions.pair import pair_arena
from arenas.models import Arena


def wave(now: datetime | None = None) -> None:
    """Celery beat, every PARLOUR_ARENA_WAVE_SECONDS: create the scheduled
    arenas due, close those past their end, pair every running one, and
    finish closed ones whose last match ended."""
    now = now or timezone.now()
    create_due(now)
    open_due(now)
    close_due(now)
    running = Arena.objects.filter(closed_at__isnull=True, starts_at__lte=now).values_list("pk", flat=True)
    for arena_id in running:
        pair_arena(arena_id, now)
    for arena_id in Arena.objects.filter(closed_at__isnull=False, finished_at__isnull=True).values_list(
            "pk", flat=True):
        with transaction.atomic():
            finish_if_done(arena_id, now)
