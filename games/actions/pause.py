"""Pausing and resuming (docs/rules.md "Pauses"): the host stops every
clock, keeping each remaining time; a pause ends by itself after
``PARLOUR_PAUSE_MAX_SECONDS``."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import ratelimits
from games import scheduling
from games.actions import clock
from games.actions.advance import advance
from games.actions.core import Change, lock, parse_version
from games.actions.errors import NotAllowed, StaleVersion
from games.models import Match

#: A host may pause one match at most this often (README "Decisions"); kept in Redis.
PAUSE_RATE = "3/10minute"


def pause_match(public_id: str, user, version: int | str | None) -> Match:
    """The host stops every clock; the remaining time is kept (docs/rules.md "Pauses").
    Raises MatchNotFound, StaleVersion, or NotAllowed (not the host, not live,
    paused too often: PAUSE_RATE)."""
    version = parse_version(version)
    with transaction.atomic():
        match = lock(public_id)
        if version != match.version:
            raise StaleVersion(match.version)
        if match.host_id is None or user is None or match.host_id != user.pk:
            raise NotAllowed(_("Only the host can pause this match."))
        if match.status != Match.Status.ACTIVE:
            raise NotAllowed(_("Only a live match can be paused."))
        if not ratelimits.hit(PAUSE_RATE, "pause", match.public_id, user.pk):
            raise NotAllowed(_("You have paused this match often lately; wait a few minutes."))
        change = Change(match)
        now = timezone.now()
        if match.deadline is None:
            match.paused_remaining = None
        elif match.turn_based:  # without holidays to come: resuming counts them again
            seat = change.seats.get(match.seat_to_move)
            match.paused_remaining = clock.time_left(match, seat and seat.user_id, now)
        else:
            match.paused_remaining = max(0.0, (match.deadline - now).total_seconds())
        match.deadline = None
        match.computer_due_at = None  # resuming sends the computer's move again
        match.status = Match.Status.PAUSED
        change.after_commit.append(
            lambda m=match: _schedule_auto_resume(m.public_id, m.version)
        )
        change.save()
    return change.match


def resume_match(public_id: str, user, version: int | str | None, *, auto: bool = False) -> Match:
    """End a pause: each remaining time becomes a new deadline. ``auto``: the
    10-minute limit ended it (no user needed). Raises MatchNotFound,
    StaleVersion, or NotAllowed (not the host, not paused)."""
    version = parse_version(version)
    with transaction.atomic():
        match = lock(public_id)
        if version != match.version:
            raise StaleVersion(match.version)
        if not auto and (match.host_id is None or user is None or match.host_id != user.pk):
            raise NotAllowed(_("Only the host can resume this match."))
        if match.status != Match.Status.PAUSED:
            raise NotAllowed(_("This match is not paused."))
        change = Change(match)
        match.status = Match.Status.ACTIVE
        remaining = match.paused_remaining
        match.paused_remaining = None
        advance(change, remaining=remaining)
        change.save()
    return change.match


def _schedule_auto_resume(public_id: str, version: int) -> None:
    scheduling.send(scheduling.AUTO_RESUME, (public_id, version),
                    countdown=settings.PARLOUR_PAUSE_MAX_SECONDS)
