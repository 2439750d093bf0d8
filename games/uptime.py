"""Whether the site was up: Celery beat's heartbeat, kept in the database.

A turn deadline that passed while the site was down is not the player's
fault: they get a fresh turn time instead of a missed turn (README
"Decisions", "Outages"). "Down" is read from Celery beat, the site's clock:
each time beat has sent the deadline sweep to the broker (every
``PARLOUR_SWEEP_SECONDS``) it records the time in the ``Heartbeat`` row
``"beat"``. A silence longer than ``PARLOUR_OUTAGE_SECONDS`` is an outage.

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
from django.utils import timezone

from games.models import Heartbeat

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
            log.warning("no beat from %s to %s: the site was down; deadlines that passed "
                        "meanwhile get a fresh turn", beat.at.isoformat(), now.isoformat())
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
