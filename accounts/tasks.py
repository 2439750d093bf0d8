"""Celery tasks of the accounts, on the general queue: the daily
housekeeping (Celery beat, CELERY_BEAT_SCHEDULE "housekeeping-accounts"),
and a large account's data file (``accounts.data``)."""

import logging
import smtplib

from celery import shared_task

from accounts import data
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
    exports = data.clear_old_exports()
    log.info("housekeeping: %d expired sessions, log-in records %s, %d data files deleted",
             sessions, records, exports)


@shared_task(ignore_result=True, autoretry_for=(smtplib.SMTPException, OSError), retry_backoff=60,
             retry_backoff_max=3600, retry_jitter=True, max_retries=5, soft_time_limit=300, time_limit=330)
def export_data(user_id: int) -> None:
    """Make ``user_id``'s data file and mail its link (``accounts.data.make_export``).
    A mail server that fails makes it retry, with backoff: a retry makes the
    file again and replaces the first."""
    made = data.make_export(user_id)
    log.info("data export of user %s: %s", user_id, "made" if made else "nothing (account closed)")
