"""Celery tasks of the accounts: the daily housekeeping (Celery beat,
CELERY_BEAT_SCHEDULE "housekeeping-accounts", on the general queue)."""

import logging

from celery import shared_task

from accounts.housekeeping import clear_expired_sessions, clear_old_login_records

log = logging.getLogger(__name__)

# Seconds, soft then hard (config/settings.py): a first run over a large
# backlog may take minutes; cut short, it keeps what it deleted (batches).
HOUSEKEEPING_LIMITS = {"soft_time_limit": 600, "time_limit": 660}


@shared_task(ignore_result=True, **HOUSEKEEPING_LIMITS)
def housekeeping() -> None:
    """Delete expired sessions and old log-in records
    (``accounts.housekeeping``). Idempotent: a second run finds nothing."""
    sessions = clear_expired_sessions()
    records = clear_old_login_records()
    log.info("housekeeping: %d expired sessions, log-in records %s deleted", sessions, records)
