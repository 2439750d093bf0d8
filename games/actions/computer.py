"""A computer seat's move: played only at the version its task was sent for,
and sent again when its task was lost (README "How live play works")."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.actions.advance import advance, send_computer_move
from games.actions.core import Change, lock
from games.actions.errors import MatchNotFound
from games.engine import CHANCE
from games.models import Match, Move


def play_computer_move(public_id: str, version: int, notation: str) -> Match | None:
    """Play a computer seat's chosen move if the match is still at ``version``.

    Returns None (and changes nothing) when the match moved on, ended, or the
    seat to move is not a computer: a late or duplicate task is a no-op.
    Raises BadMove when ``notation`` is not a legal move now.
    """
    with transaction.atomic():
        try:
            match = lock(public_id)
        except MatchNotFound:
            return None
        if match.version != version or match.status != Match.Status.ACTIVE:
            return None
        change = Change(match)
        to_move = change.to_move
        if to_move is None or to_move == CHANCE or not change.seat(to_move).is_computer:
            return None
        move = change.parse_legal(notation)
        change.apply(move, Move.Actor.SEAT, to_move)
        advance(change)
        change.save()
    return change.match


def overdue_computer_moves() -> list[tuple[str, int]]:
    """(public id, version) of live matches whose computer move is past its
    retry time (``Match.computer_due_at``): its task was lost or is stuck."""
    return list(
        Match.objects.filter(
            status=Match.Status.ACTIVE, computer_due_at__lt=timezone.now()
        ).values_list("public_id", "version")
    )


def resend_computer_move(public_id: str, version: int) -> bool:
    """Send the computer's move at ``version`` again, now, and move its retry
    time ``PARLOUR_COMPUTER_RETRY_SECONDS`` on. A retry, never a timeout: no
    move is recorded and the version does not change; the move is played
    once however many tasks run, since each plays only at ``version``
    (``play_computer_move``). Returns False (and sends nothing) when the
    match moved on, is not live, or the retry time has not come."""
    with transaction.atomic():
        try:
            match = lock(public_id)
        except MatchNotFound:
            return False
        now = timezone.now()
        if (
            match.version != version
            or match.status != Match.Status.ACTIVE
            or match.computer_due_at is None
            or match.computer_due_at > now
        ):
            return False
        due = now + timedelta(seconds=settings.PARLOUR_COMPUTER_RETRY_SECONDS)
        if not Match.objects.filter(pk=match.pk, version=version).update(computer_due_at=due):
            return False
        transaction.on_commit(lambda: send_computer_move(public_id, version, None))
    return True
