"""Housekeeping of matchmaking's tables (core/housekeeping.py; the daily task
is ``matchmaking.tasks.housekeeping``): room invites and challenges long over
(docs/operations.md lists each table with its retention, and the ones kept)."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.utils import timezone

from core.housekeeping import cutoff, delete_in_batches
from matchmaking.models import Challenge, Invite


def clear_old_invites(now: datetime | None = None) -> int:
    """Delete the room invites whose expiry is more than
    PARLOUR_KEEP_INVITES_DAYS past, whatever became of them (used, revoked or
    never used: a used one's seat is the room's RoomMember). Returns how many."""
    old = cutoff(settings.PARLOUR_KEEP_INVITES_DAYS, now or timezone.now())
    return delete_in_batches(Invite.objects.filter(expires_at__lt=old))


def clear_old_challenges(now: datetime | None = None) -> int:
    """Delete the challenges whose answer time ended more than
    PARLOUR_KEEP_CHALLENGES_DAYS ago (accepted, declined, withdrawn or
    lapsed; an accepted one's match stays, with its seats: the record).
    Returns how many."""
    old = cutoff(settings.PARLOUR_KEEP_CHALLENGES_DAYS, now or timezone.now())
    return delete_in_batches(Challenge.objects.filter(expires_at__lt=old))
