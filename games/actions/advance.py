"""After any accepted change the match is *advanced*: chance steps are drawn
with the fair RNG (docs/rules.md "Provably fair randomness"), forced moves
are played for the seat when the match option allows, and the next decision
gets its deadline (a human) or its Celery task and retry time (a computer).
Every decision a match waits for has a time in the database that the
sweeper finds, so a lost task never stalls a match (README "How live play
works").

Only live deadlines get a Celery task (``expire_turn``, due within the
match's seconds per decision). A turn-based deadline (days) gets none: a task
with an ETA of days would be redelivered by the Redis broker every
visibility timeout and held in the workers' memory meanwhile. The database
holds it and the sweeper (``games.tasks.sweep_deadlines``, every
``PARLOUR_SWEEP_SECONDS``) expires it, so no task is sent with an ETA beyond
the sweeper's reach (docs/decisions.md "Turn-based clocks")."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import scheduling
from games.actions.clock import hold_for_holidays
from games.actions.core import Change, allowance
from games.actions.finish import end
from games.engine import CHANCE, fair
from games.models import Match, Move
from games.time_controls import DAY

ZERO = timedelta(0)


def advance(change: Change, remaining: float | None = None) -> None:
    """Draw chance steps, play forced moves, then set up the next decision:
    a computer's move and retry time, or a human's deadline (``remaining``
    seconds from now, default the match's ``turn_seconds``). A match whose
    rules say it is over ends (``finish.end``). Nothing for a match that is
    not active."""
    match = change.match
    if match.status != Match.Status.ACTIVE:
        return
    seed = bytes.fromhex(match.seed)
    rules = change.rules
    while True:
        to_move = rules.to_move(change.state)
        if to_move is None:
            outcome = rules.outcome(change.state)
            end(change, Match.Status.FINISHED, outcome.reason, outcome.ranks)
            return
        if to_move == CHANCE:
            k = rules.chance_count(change.state)
            change.apply(fair.fair_outcome(rules, change.state, seed, match.public_id),
                         Move.Actor.CHANCE, None, chance_index=k)
            continue
        forced = rules.forced_move(change.state)
        if forced is not None:
            change.apply(forced, Move.Actor.SERVER, to_move)
            continue
        break
    seat = change.seats[to_move]
    match.seat_to_move = to_move
    version = match.version + 1
    now = timezone.now()
    if seat.is_computer:
        match.deadline = None
        delay = computer_delay(match)
        match.computer_due_at = now + timedelta(seconds=delay + settings.PARLOUR_COMPUTER_RETRY_SECONDS)
        change.after_commit.append(lambda: _schedule_computer(match, version))
    else:
        match.computer_due_at = None
        seconds = remaining if remaining is not None else match.turn_seconds
        match.deadline = now + timedelta(seconds=seconds)
        if match.turn_seconds >= DAY:
            # Turn-based: no task; the sweeper is the only expirer (module docstring).
            match.holiday_credit = ZERO
            hold_for_holidays(match, seat.user_id, now)
        elif not _deadline_covered(match, now):
            deadline = match.deadline
            match.deadline_task_at = deadline
            change.after_commit.append(lambda: _schedule_deadline(match.public_id, version, deadline))


def computer_delay(match: Match) -> float:
    """Seconds a computer waits before it moves (README "Decisions")."""
    return settings.PARLOUR_COMPUTER_DELAYS.get(match.computer_speed, 1.0)


def _schedule_computer(match: Match, version: int) -> None:
    delay = computer_delay(match)
    send_computer_move(match.public_id, version, delay or None)


def send_computer_move(public_id: str, version: int, countdown: float | None) -> None:
    """Send the computer move task for ``version``, ``countdown`` seconds from now (None: now)."""
    scheduling.send(scheduling.COMPUTER_MOVE, (public_id, version), countdown=countdown)


def _deadline_covered(match: Match, now) -> bool:
    """True when a pending expire_turn task runs after ``now`` and no later
    than ``match.deadline``: it will find the match moved on and hand over
    (``hand_over_deadline``), so this change needs no task of its own."""
    pending = match.deadline_task_at
    return pending is not None and match.deadline is not None and now < pending <= match.deadline


def hand_over_deadline(match: Match, again: bool = False) -> None:
    """A deadline task ran for a version the match moved past (or, with
    ``again``, before the deadline of its own version): schedule one for the
    current decision unless another pending task already covers it. Runs in
    the caller's transaction, with ``match`` locked (PostgreSQL) or guarded
    by its version (SQLite)."""
    now = timezone.now()
    if match.status != Match.Status.ACTIVE or match.deadline is None or match.turn_based:
        return
    if not again and _deadline_covered(match, now):
        return
    deadline, version = match.deadline, match.version
    if Match.objects.filter(pk=match.pk, version=version).update(deadline_task_at=deadline):
        match.deadline_task_at = deadline
        transaction.on_commit(lambda: _schedule_deadline(match.public_id, version, deadline))


def _schedule_deadline(public_id: str, version: int, deadline) -> None:
    # At the deadline plus the allowance: a move that arrives within it still counts.
    scheduling.send(scheduling.EXPIRE_TURN, (public_id, version), eta=deadline + allowance())
