"""Whether the site was up: Celery beat's heartbeat, kept in the database.

A turn deadline that passed while the site was down is not the player's
fault. In a live match the player gets a fresh turn time instead of a
missed turn (README "Decisions", "Outages"); every turn-based clock that was
running through the outage is extended by the part of it that it ran
through, the outage's length for a clock that began before it
(``credit_outages``; docs/decisions.md "Turn-based clocks").

"Down" is read from Celery beat, the site's clock: each time beat has sent
the deadline sweep to the broker (every ``PARLOUR_SWEEP_SECONDS``) it
records the time in the ``Heartbeat`` row ``"beat"``. A silence longer
than ``PARLOUR_OUTAGE_SECONDS`` is an outage.

The database, not Redis, holds the heartbeat: the embedded Redis keeps
nothing on disk, and an outage is exactly when it restarts empty. Beat, not
the workers, beats: with the workers down the web servers still take moves,
so a late move is still late (the deadline is the rule) and the match does
not wait for the workers.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings
from django.db import DatabaseError, IntegrityError, close_old_connections, connection, transaction
from django.db.models import F
from django.utils import timezone

from games import time_controls
from games.models import Heartbeat, Match, Outage

log = logging.getLogger(__name__)

BEAT = "beat"
#: The task whose sending by beat is the heartbeat.
SWEEP_TASK = "games.tasks.sweep_deadlines"


def record_beat(now: datetime | None = None) -> None:
    """Record that beat is running at ``now`` (default: now). When the
    previous beat is more than ``PARLOUR_OUTAGE_SECONDS`` old, the gap
    between them is recorded as the last outage (``down_from``, ``up_since``).
    Raises ``DatabaseError`` when the database cannot be written."""
    now = now or timezone.now()
    with transaction.atomic():
        beat = Heartbeat.objects.select_for_update().filter(name=BEAT).first()
        if beat is None:
            try:
                with transaction.atomic():
                    Heartbeat.objects.create(name=BEAT, at=now)
            except IntegrityError:
                pass  # another beat process wrote the first row at the same moment
            return
        if (now - beat.at).total_seconds() > settings.PARLOUR_OUTAGE_SECONDS:
            beat.down_from, beat.up_since = beat.at, now
            Outage.objects.get_or_create(down_from=beat.at, defaults={"up_since": now})
            log.warning("no beat from %s to %s: the site was down; live deadlines that passed "
                        "meanwhile get a fresh turn, turn-based clocks the outage's length",
                        beat.at.isoformat(), now.isoformat())
        beat.at = now
        beat.save(update_fields=["at", "down_from", "up_since"])


def was_down_at(moment: datetime, now: datetime | None = None) -> bool:
    """True when the site counts as down at ``moment`` (an aware datetime):
    it falls in the last recorded outage, or after the last beat when beat
    has been silent for over ``PARLOUR_OUTAGE_SECONDS`` by ``now`` (an
    outage still going on, or just ending before beat's first beat). False
    when beat has never beaten (no evidence of an outage: a fresh database,
    or tests without beat)."""
    beat = Heartbeat.objects.filter(name=BEAT).first()
    if beat is None:
        return False
    if beat.up_since is not None and beat.down_from <= moment < beat.up_since:
        return True
    now = now or timezone.now()
    return moment > beat.at and (now - beat.at).total_seconds() > settings.PARLOUR_OUTAGE_SECONDS


def on_task_sent(sender=None, **kwargs) -> None:
    """Celery's ``after_task_publish`` receiver (connected in ``GamesConfig.ready``
    for the sweep task only, so it runs in beat): record the beat. A database
    error is logged, never raised into beat's loop."""
    # Beat has no request cycle to drop a broken or expired connection; a
    # caller's own transaction (tests) keeps its connection.
    outside = not connection.in_atomic_block
    if outside:
        close_old_connections()
    try:
        record_beat()
    except DatabaseError:
        log.exception("could not record beat's heartbeat")
        if outside:
            close_old_connections()


#: Matches credited per transaction by ``credit_outages``.
CREDIT_BATCH = 500


def credit_pending() -> bool:
    """True while a recorded outage has not yet been credited to every
    turn-based clock: the sweeper times out no turn-based decision meanwhile."""
    return Outage.objects.filter(credited_at__isnull=True).exists()


def credit_outages(batch: int | None = None, max_batches: int = 100) -> bool:
    """Extend the turn-based clocks that ran through each recorded outage not
    yet credited, oldest outage first, ``batch`` matches (default
    ``CREDIT_BATCH``) per transaction, at most ``max_batches`` transactions.
    Returns True when no outage is left to credit.

    A clock ran through the outage ``down_from``..``up_since`` when its
    match is active and turn-based, its deadline is after ``down_from`` and
    the decision began (``Match.updated_at``, the last change) before
    ``up_since``; its deadline moves later by ``up_since - max(down_from,
    began)``: the outage's length for a decision that began before it, a
    deadline that passed during it included. The matches are taken in
    primary-key order, and the outage row remembers the last one credited in
    the same transaction, so a sweep cut short resumes where it stopped and
    no clock is credited twice for one outage. The version does not change:
    a move in flight stays valid."""
    batch = batch or CREDIT_BATCH
    if not credit_pending():  # nearly always: one read, no transaction
        return True
    for _ in range(max_batches):
        with transaction.atomic():
            outage = Outage.objects.select_for_update().filter(credited_at__isnull=True).first()
            if outage is None:
                return True
            rows = list(
                Match.objects.select_for_update()
                .filter(time_controls.TURN_BASED_Q, status=Match.Status.ACTIVE,
                        deadline__gt=outage.down_from, updated_at__lt=outage.up_since,
                        pk__gt=outage.credited_through)
                .order_by("pk")
                .only("pk", "deadline", "updated_at")[:batch]
            )
            # Most decisions began before the outage: one UPDATE gives them all its length.
            before = [m.pk for m in rows if m.updated_at <= outage.down_from]
            Match.objects.filter(pk__in=before).update(deadline=F("deadline") + outage.length)
            for match in rows:
                if match.updated_at > outage.down_from:
                    credit = outage.up_since - match.updated_at
                    Match.objects.filter(pk=match.pk).update(deadline=match.deadline + credit)
            if rows:
                outage.credited_through = rows[-1].pk
            if len(rows) < batch:
                outage.credited_at = timezone.now()
                log.warning("credited %s to the turn-based clocks running through it", outage)
            outage.save(update_fields=["credited_through", "credited_at"])
    return not credit_pending()
