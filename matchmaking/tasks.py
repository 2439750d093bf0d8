"""Celery tasks of the ranked queues: the pairing wave (Celery beat, every
PARLOUR_QUEUE_WAVE_SECONDS). Idempotent: a late or doubled wave pairs
whoever is still waiting, and nobody twice (entries are locked and marked)."""

import logging

from celery import shared_task

from matchmaking.challenges import actions as challenges
from matchmaking.housekeeping import clear_old_challenges, clear_old_invites
from matchmaking.queue import actions, push, turn_based
from matchmaking.rematch import actions as rematch

log = logging.getLogger(__name__)


# Seconds, soft then hard (config/settings.py): expiring, pairing and pushing
# every queue takes milliseconds; a wave cut short is redone by the next one.
WAVE_LIMITS = {"soft_time_limit": 20, "time_limit": 30}


@shared_task(ignore_result=True, **WAVE_LIMITS)
def queue_wave() -> None:
    """Expire entries whose page vanished, pair every queue, then push each
    waiting player's time waited, window and the number waiting; lapse the
    rematch offers and challenges past their time whose task was lost
    (README "Playing again")."""
    if expired := actions.expire_stale():
        log.info("queue wave: %s stale entries expired", expired)
    actions.pair_queues()
    push.queue_statuses(actions.waiting_statuses())
    if lapsed := rematch.lapse_overdue() + challenges.lapse_overdue():
        log.info("queue wave: %s rematch offers and challenges lapsed (their tasks were lost)", lapsed)


@shared_task(ignore_result=True, **WAVE_LIMITS)
def turn_based_wave() -> None:
    """Pair every turn-based ranked queue (Celery beat, every
    PARLOUR_TURN_BASED_WAVE_SECONDS): their windows widen by the ten minutes,
    so a minute's delay costs nobody anything (docs/decisions.md "The
    turn-based ranked queue"). Idempotent: a doubled wave finds the paired
    entries gone."""
    if started := turn_based.pair_turn_based():
        log.info("turn-based wave: %s matches started", len(started))


@shared_task(name=rematch.LAPSE_TASK, ignore_result=True, **WAVE_LIMITS)
def lapse_rematch(offer_id: int) -> None:
    """An offer's OFFER_SECONDS are up: it lapses unless every seat accepted
    (or nothing, if it was answered meanwhile)."""
    rematch.lapse(offer_id)


@shared_task(name=challenges.LAPSE_TASK, ignore_result=True, **WAVE_LIMITS)
def lapse_challenge(challenge_id: int) -> None:
    """A live challenge's 5 minutes are up: it lapses unless it was answered."""
    challenges.lapse(challenge_id)


# Seconds, soft then hard (config/settings.py): a first run over a large
# backlog may take minutes; cut short, it keeps what it deleted (batches).
HOUSEKEEPING_LIMITS = {"soft_time_limit": 600, "time_limit": 660}


@shared_task(ignore_result=True, **HOUSEKEEPING_LIMITS)
def housekeeping() -> None:
    """Delete room invites and challenges long over
    (``matchmaking.housekeeping``; Celery beat, daily). Idempotent."""
    invites = clear_old_invites()
    challenges_deleted = clear_old_challenges()
    log.info("housekeeping: %d invites, %d challenges deleted", invites, challenges_deleted)
