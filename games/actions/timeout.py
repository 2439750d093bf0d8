"""The clock: a seat that missed its decision times out (docs/rules.md
"Turn timer", "Idle seats"), and the deadlines the sweeper finds overdue."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games import time_controls, uptime
from games.actions.advance import advance, hand_over_deadline
from games.actions.clock import hold_for_holidays
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
    is not a missed turn: in a live match the seat gets a fresh turn time
    instead (a new deadline, ``turn_seconds`` from now; README "Decisions").
    A turn-based decision is not timed out while an outage waits to be
    credited to its clock (``uptime.credit_outages``) nor while a holiday of
    the player to move stops it (``clock``): its deadline moves instead.
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
        if match.turn_based and _turn_based_clock_runs_on(match, now):
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


def _turn_based_clock_runs_on(match: Match, now) -> bool:
    """For a turn-based ``match`` past its deadline: True (and the deadline
    written again, without a new version) when its clock has not in fact run
    out: an outage is still to be credited, or the site is down, or a
    holiday of the player to move stops it (``clock.hold_for_holidays``)."""
    if uptime.credit_pending() or uptime.was_down_at(match.deadline, now):
        return True
    seat = Seat.objects.filter(match=match, index=match.seat_to_move).only("user_id").first()
    if seat is None or not hold_for_holidays(match, seat.user_id, match.updated_at):
        return False
    Match.objects.filter(pk=match.pk, version=match.version).update(
        deadline=match.deadline, holiday_credit=match.holiday_credit)
    return match.deadline + allowance() > now


#: The most overdue deadlines one sweep expires (the earliest first); the rest wait for the next.
SWEEP_BATCH = 500


def overdue_matches(grace_seconds: float | None = None, *, live_only: bool = False,
                    limit: int | None = None) -> list[tuple[str, int]]:
    """(public id, version) of matches being played whose deadline passed
    over ``grace_seconds`` ago (default: the network allowance,
    ``PARLOUR_MOVE_ALLOWANCE_SECONDS``), the earliest first, at most
    ``limit`` (default ``SWEEP_BATCH``); ``live_only``: live matches only.
    The sweeper expires these: every turn-based deadline, and live ones
    whose task was lost. Over the ``match_deadline`` index (status,
    deadline), it reads only the overdue rows, however many matches are open."""
    grace = allowance() if grace_seconds is None else timedelta(seconds=grace_seconds)
    return list(overdue_query(timezone.now() - grace, live_only=live_only, limit=limit))


def overdue_query(cutoff, *, live_only: bool = False, limit: int | None = None):
    """The sweeper's query (``overdue_matches``): (public id, version) of the
    matches being played whose deadline is before ``cutoff``, earliest first."""
    overdue = Match.objects.filter(status=Match.Status.ACTIVE, deadline__lt=cutoff)
    if live_only:
        overdue = overdue.filter(time_controls.LIVE_Q)
    return overdue.order_by("deadline").values_list("public_id", "version")[: limit or SWEEP_BATCH]
