"""The clock: a seat that missed its decision times out (docs/rules.md
"Turn timer", "Idle seats"), and the deadlines the sweeper finds overdue."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games import uptime
from games.actions.advance import advance, hand_over_deadline
from games.actions.core import Change, allowance, lock
from games.actions.errors import MatchNotFound
from games.actions.leave import remove_seat
from games.engine import CHANCE
from games.models import Match, Move, Seat

log = logging.getLogger(__package__)


def expire_turn(public_id: str, version: int) -> Match | None:
    """The seat to move missed its decision: record the engine's
    ``timeout_move`` for it (``timeout``; a Golden Rule offer's ``decline``,
    which is not counted as a missed turn).

    Three missed turns in a row (the match's ``idle_limit``) idle the seat
    out: a ``leave`` follows (docs/rules.md "Idle seats"). No-op (returns None) when
    the match moved on, is not live, or its deadline and the network
    allowance (``PARLOUR_MOVE_ALLOWANCE_SECONDS``) have not passed.

    A deadline that passed while the site was down (``uptime.was_down_at``)
    is not a missed turn: the seat gets a fresh turn time instead (a new
    deadline, ``turn_seconds`` from now; README "Decisions").
    """
    with transaction.atomic():
        try:
            match = lock(public_id)
        except MatchNotFound:
            return None
        now = timezone.now()
        if (
            match.version != version
            or match.status != Match.Status.ACTIVE
            or match.deadline is None
            or match.deadline + allowance() > now
        ):
            # A task that ran early (clocks) for the current version tries again.
            hand_over_deadline(match, again=match.version == version)
            return None
        change = Change(match)
        seat_index = change.to_move
        if seat_index is None or seat_index == CHANCE:
            return None
        if uptime.was_down_at(match.deadline, now):
            log.warning("match %s v%s: its deadline passed while the site was down; a fresh turn",
                        match.public_id, match.version)
            advance(change)  # the same seat, a new deadline
            change.save()
            return change.match
        move = change.rules.timeout_move(change.state)
        # A legal move here is the seat's own answer, not a missed turn: a
        # Roundabout Golden Rule offer that times out is a decline (docs/rules.md "Turn timer").
        missed = move not in change.rules.legal_moves(change.state)
        change.apply(move, Move.Actor.SERVER, seat_index)
        seat = change.seat(seat_index)
        if missed:
            seat.missed_turns += 1
        if seat.missed_turns >= match.idle_limit:
            remove_seat(change, seat_index, Seat.Status.IDLE_OUT)
        advance(change)
        change.save()
    return change.match


def overdue_matches(grace_seconds: float | None = None) -> list[tuple[str, int]]:
    """(public id, version) of live matches whose deadline passed over
    ``grace_seconds`` ago (default: the network allowance,
    ``PARLOUR_MOVE_ALLOWANCE_SECONDS``): the sweeper expires these when their
    task was lost."""
    grace = allowance() if grace_seconds is None else timedelta(seconds=grace_seconds)
    cutoff = timezone.now() - grace
    return list(
        Match.objects.filter(status=Match.Status.ACTIVE, deadline__lt=cutoff).values_list(
            "public_id", "version"
        )
    )
