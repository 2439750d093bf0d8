"""Celery tasks of the ranked queues: the pairing wave (Celery beat, every
PARLOUR_QUEUE_WAVE_SECONDS). Idempotent: a late or doubled wave pairs
whoever is still waiting, and nobody twice (entries are locked and marked)."""

import logging

from celery import shared_task

from matchmaking import actions, push

log = logging.getLogger(__name__)


# Seconds, soft then hard (config/settings.py): expiring, pairing and pushing
# every queue takes milliseconds; a wave cut short is redone by the next one.
WAVE_LIMITS = {"soft_time_limit": 20, "time_limit": 30}


@shared_task(ignore_result=True, **WAVE_LIMITS)
def queue_wave() -> None:
    """Expire entries whose page vanished, pair every queue, then push each
    waiting player's time waited, window and the number waiting."""
    if expired := actions.expire_stale():
        log.info("queue wave: %s stale entries expired", expired)
    actions.pair_queues()
    push.queue_statuses(actions.waiting_statuses())
