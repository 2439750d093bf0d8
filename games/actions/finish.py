"""How a match ends: its result, and its ratings in the same transaction
(``games.rating``); and ``abort_match``, an end with no result."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games import luck_summary, rating, signals
from games.actions.core import Change, lock, require_live
from games.models import Match


def end(change: Change, status: str, reason: str, ranks=None) -> None:
    """End the match of ``change`` with ``status`` (finished or aborted) and
    ``reason``; ``ranks``: each seat's rank (1 = first), by seat index. No
    deadline or computer move follows. A finished rated match is rated here,
    so the result and the ratings commit together; ``signals.match_ended``
    goes out here too, inside the same transaction."""
    match = change.match
    match.status = status
    match.end_reason = reason
    match.deadline = None
    match.computer_due_at = None
    match.seat_to_move = None
    match.paused_remaining = None
    match.finished_at = timezone.now()
    if ranks is not None:
        for index, rank in enumerate(ranks):
            change.seat(index).rank = rank
    change.after_commit.clear()  # no deadline or computer move for an ended match
    if status == Match.Status.FINISHED and match.rated:
        # In this transaction: the result and the ratings commit together.
        rating.rate_match(match, change.seats.values())
    seats = sorted(change.seats.values(), key=lambda s: s.index)
    # Once per match, in this transaction: each seat's dice in numbers
    # (docs/features.md "The dice in numbers"), from the whole record.
    luck_summary.record_match_end(match, seats, change.moves)
    signals.match_ended.send(sender=Match, match=match, seats=seats)


def abort_match(public_id: str, reason: str = "aborted") -> Match:
    """End a live or paused match with no result (no rating change).
    Raises MatchNotFound, or NotAllowed when it is not live or paused."""
    with transaction.atomic():
        match = lock(public_id)
        if match.status != Match.Status.PAUSED:
            require_live(match)
        change = Change(match)
        end(change, Match.Status.ABORTED, reason)
        change.save()
    return change.match
