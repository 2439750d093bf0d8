"""Turn-based clocks stop while the player to move is on holiday
(``accounts.holidays``; docs/features.md "Turn-based play").

A decision's clock starts when the match last changed (``Match.updated_at``:
every change sets the next decision's deadline, ``advance``) and would run
out at ``deadline - holiday_credit`` (its deadline without holidays). Each
holiday of the player to move that begins before the clock runs out stops
it from its start (or the decision's, if later) to its end, and so moves the
deadline later by that much: ``with_holidays``. The match keeps the result
as its ``deadline`` (what the pages show and the sweeper reads, over its
index) and the difference as ``holiday_credit``; it is worked out again,
from the holidays as they are, when the decision begins (``advance``), when
the player books or cancels a holiday (``refresh_holidays``) and before the
sweeper times the decision out (``expire_turn``). Live matches have no
holidays.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import DatabaseError, transaction
from django.db.models import F

from accounts import holidays
from games import time_controls
from games.models import Match, Seat

log = logging.getLogger(__name__)

#: A change of the deadline smaller than this is not written (clock jitter).
_TOLERANCE = timedelta(seconds=1)


def with_holidays(deadline: datetime, since: datetime, spans) -> datetime:
    """The deadline of a clock that started at ``since`` and runs out at
    ``deadline`` when nothing stops it, stopped during each of ``spans``
    ((start, end) moments, in order, not overlapping)."""
    for start, end in spans:
        if end <= since:
            continue
        if start >= deadline:
            break
        deadline += end - max(start, since)
    return deadline


def hold_for_holidays(match: Match, user_id: int | None, since: datetime) -> bool:
    """Set ``match.deadline`` and ``holiday_credit`` (in memory) for the
    holidays of ``user_id``, the player to move, whose decision began at
    ``since``; nothing for no user (a computer). Returns True when they changed."""
    if user_id is None or match.deadline is None:
        return False
    plain = match.deadline - match.holiday_credit
    deadline = with_holidays(plain, since, holidays.spans(user_id, since))
    if abs(deadline - match.deadline) < _TOLERANCE:
        return False
    match.deadline, match.holiday_credit = deadline, deadline - plain
    return True


def time_left(match: Match, user_id: int | None, now: datetime) -> float:
    """Seconds the clock of ``match``'s decision has left to run at ``now``
    (not counting the holidays of ``user_id``, the player to move, still to
    come before its deadline): what a pause keeps, since resuming works the
    holidays out again from then. 0 when past the deadline."""
    if match.deadline is None:
        return 0.0
    left = match.deadline - now
    if user_id is not None and match.holiday_credit:
        for start, end in holidays.spans(user_id, now):
            if start >= match.deadline:
                break
            left -= min(end, match.deadline) - max(start, now)
    return max(0.0, left.total_seconds())


def refresh_holidays(user_id: int) -> int:
    """Work out again the deadlines of the turn-based matches waiting for
    ``user_id`` (their holidays changed). Each match in its own short
    transaction, locked; the version does not change (a move in flight
    stays valid). Returns how many deadlines moved. At most the per-player
    limit of turn-based matches."""
    waiting = (
        Match.objects.filter(time_controls.TURN_BASED_Q, status=Match.Status.ACTIVE,
                             seats__user_id=user_id, seats__status=Seat.Status.PLAYING,
                             seats__index=F("seat_to_move"))
        .values_list("pk", flat=True)
    )
    moved = 0
    for pk in list(waiting):
        with transaction.atomic():
            match = Match.objects.select_for_update().filter(pk=pk, status=Match.Status.ACTIVE).only(
                "pk", "version", "deadline", "holiday_credit", "updated_at").first()
            if match is not None and hold_for_holidays(match, user_id, match.updated_at):
                moved += Match.objects.filter(pk=pk, version=match.version).update(
                    deadline=match.deadline, holiday_credit=match.holiday_credit)
    return moved


def on_holidays_changed(sender=None, user_id: int | None = None, **kwargs) -> None:
    """``accounts.holidays.holidays_changed`` receiver (``GamesConfig.ready``).
    A database error is logged, not raised into the booking's page: the
    holiday is booked, and the sweeper works the deadline out again before
    it times a decision out."""
    if user_id is None:
        return
    try:
        refresh_holidays(user_id)
    except DatabaseError:
        log.exception("could not move the deadlines of user %s for their holidays", user_id)
