"""Celery tasks: turn deadlines, computer moves, the deadline sweeper.

Tasks carry ids and the match version they were scheduled for, never model
instances (STYLE habit 4); each checks the version and does nothing if the
match moved on, so a late, repeated or lost-and-swept task is harmless.
Nothing relies on revoking a task.
"""

import logging
import random
import secrets

from celery import shared_task
from django.conf import settings

from games import actions, bots, scheduling, uptime
from games.engine import get_rules
from games.models import Match

log = logging.getLogger(__name__)

# Time limits (seconds, soft then hard; config/settings.py says what they do).
# A live task is one locked transaction, and a computer's thinking of at most
# PARLOUR_BOT_BUDGET_MS (200 ms) before it: milliseconds, or a few seconds
# waiting for a lock. The sweeper may expire many overdue matches after an
# outage, each in its own transaction, so a sweep cut short keeps what it did.
LIVE_LIMITS = {"soft_time_limit": 10, "time_limit": 15}
SWEEP_LIMITS = {"soft_time_limit": 20, "time_limit": 30}


@shared_task(name=scheduling.EXPIRE_TURN, ignore_result=True, **LIVE_LIMITS)
def expire_turn(public_id: str, version: int) -> None:
    """The decision at ``version`` ran out of time (or nothing, if it moved on)."""
    actions.expire_turn(public_id, version)


@shared_task(ignore_result=True, **SWEEP_LIMITS)
def sweep_deadlines() -> None:
    """Celery beat, every PARLOUR_SWEEP_SECONDS: credit a recorded outage
    to the turn-based clocks (``uptime.credit_outages``), expire turns whose
    deadline passed (every turn-based one: they have no task; live ones whose
    task was lost: a killed worker, a Redis restart), and send again the
    computer moves past their retry time. Beat's sending of this task is the
    site's heartbeat (``games.uptime``)."""
    credited = uptime.credit_outages()
    # Until an outage is credited, turn-based deadlines wait (expire_turn
    # would not time them out): they must not fill the batch for live ones.
    for public_id, version in actions.overdue_matches(live_only=not credited):
        expired = actions.expire_turn(public_id, version)
        if expired is not None and not expired.turn_based:  # a live one's task was lost
            log.warning("swept an overdue deadline: match %s v%s", public_id, version)
    for public_id, version in actions.overdue_computer_moves():
        if actions.resend_computer_move(public_id, version):
            log.warning("resent a lost computer move: match %s v%s", public_id, version)


@shared_task(name=scheduling.AUTO_RESUME, ignore_result=True, **LIVE_LIMITS)
def auto_resume(public_id: str, version: int) -> None:
    """A pause ends by itself after PARLOUR_PAUSE_MAX_SECONDS (docs/rules.md "Pauses")."""
    try:
        actions.resume_match(public_id, None, version, auto=True)
    except actions.ActionError:
        pass  # resumed, ended or changed meanwhile


@shared_task(name=scheduling.COMPUTER_MOVE, ignore_result=True, **LIVE_LIMITS)
def computer_move(public_id: str, version: int) -> None:
    """Let the computer seat to move at ``version`` choose and play.

    The bot sees only its seat's view and the legal moves (docs/rules.md "Computer
    players"); it thinks outside any transaction, then the move is played
    only if the match is still at ``version``.
    """
    match = Match.objects.filter(public_id=public_id, version=version, status=Match.Status.ACTIVE).first()
    if match is None:
        return
    rules = get_rules(match.kind)
    state = rules.load(match.state)
    seat_index = rules.to_move(state)
    seat = match.seats.filter(index=seat_index).first() if isinstance(seat_index, int) else None
    if seat is None or not seat.is_computer:
        return
    legal = rules.legal_moves(state)
    view = rules.view(state, seat_index)
    rng = random.Random(secrets.randbits(64))
    budget = settings.PARLOUR_BOT_BUDGET_MS if seat.computer_level == "strong" else None
    move = bots.choose_move(match.kind, seat.computer_level, view, seat_index, legal, rng, budget_ms=budget)
    actions.play_computer_move(public_id, version, str(move))
