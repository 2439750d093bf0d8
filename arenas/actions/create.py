"""Arenas made from their schedules ahead of their start, and opened when it comes."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from arenas import push
from arenas.models import Arena, ArenaSchedule


def next_starts(schedule: ArenaSchedule, now: datetime, ahead: timedelta) -> list[datetime]:
    """The starts of ``schedule`` whose arena should exist at ``now``: the one
    running now (if any) and those starting within ``ahead``. Aware datetimes."""
    step = timedelta(minutes=schedule.every_minutes)
    if now < schedule.first_start:
        first = schedule.first_start
    else:
        periods = (now - schedule.first_start) // step
        first = schedule.first_start + periods * step
        if first + timedelta(minutes=schedule.minutes) <= now:
            first += step  # the latest one is over
    starts = []
    at = first
    while at <= now + ahead and len(starts) < 48:
        starts.append(at)
        at += step
    return starts


def create_due(now: datetime | None = None) -> list[Arena]:
    """Create each active schedule's arenas that should exist now and do not
    (README "Arenas": announced PARLOUR_ARENA_ANNOUNCE_MINUTES ahead). Returns
    the new ones. Idempotent: a unique (schedule, start) constraint."""
    now = now or timezone.now()
    ahead = timedelta(minutes=settings.PARLOUR_ARENA_ANNOUNCE_MINUTES)
    made = []
    for schedule in ArenaSchedule.objects.filter(active=True):
        for start in next_starts(schedule, now, ahead):
            arena, created = Arena.objects.get_or_create(
                schedule=schedule, starts_at=start,
                defaults={f: getattr(schedule, f) for f in (
                    "name", "kind", "seats", "turn_seconds", "minutes", "rated", "rated_from_players",
                    "rated_meetings", "max_players")},
            )
            if created:
                made.append(arena)
    return made


def open_due(now: datetime | None = None) -> list[int]:
    """Mark every arena whose start has come as opened and push its new
    header to its pages (from "Starts at …" to running), once each. Returns
    the ids opened."""
    now = now or timezone.now()
    opened = []
    due = Arena.objects.filter(opened_at__isnull=True, closed_at__isnull=True, starts_at__lte=now)
    for arena_id in due.values_list("pk", flat=True):
        if Arena.objects.filter(pk=arena_id, opened_at__isnull=True).update(opened_at=now):
            opened.append(arena_id)
            transaction.on_commit(lambda a=arena_id: push.arena_changed(a))
    return opened
