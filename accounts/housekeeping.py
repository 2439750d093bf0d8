"""Housekeeping of the accounts' tables (core/housekeeping.py; the daily task
is ``accounts.tasks.housekeeping``): expired sessions, and old log-in records
of django-axes (docs/operations.md lists each table with its retention)."""

from __future__ import annotations

import logging
from datetime import datetime
from importlib import import_module

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.utils import timezone

from core.housekeeping import cutoff, delete_in_batches

log = logging.getLogger(__name__)


def clear_expired_sessions(now: datetime | None = None) -> int:
    """Delete the sessions past their expiry date, as ``manage.py
    clearsessions`` does (``SessionStore.clear_expired``), in batches for the
    database backends (``db``, ``cached_db``). Returns how many went (0 for a
    backend that cleans up after itself: file, cache, signed cookies)."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    if issubclass(store, DatabaseSessionStore):
        model = store.get_model_class()
        return delete_in_batches(model.objects.filter(expire_date__lt=now or timezone.now()))
    try:
        store.clear_expired()
    except NotImplementedError:  # cache and cookie sessions expire by themselves
        pass
    return 0


def clear_old_login_records(now: datetime | None = None) -> dict[str, int]:
    """Delete django-axes' records (``settings.AXES_*``; README "Moderation"):
    the failed log-in counts (AccessAttempt, one row per username and address,
    its time that of the last failure) older than
    PARLOUR_KEEP_LOGIN_ATTEMPTS_DAYS, long past the lockout's cool-off; the
    log of log-ins and log-outs (AccessLog) and of failures
    (AccessFailureLog, off unless AXES_ENABLE_ACCESS_FAILURE_LOG) older than
    PARLOUR_KEEP_LOGIN_LOG_DAYS. Returns how many rows went, by model name."""
    now = now or timezone.now()
    attempts = cutoff(settings.PARLOUR_KEEP_LOGIN_ATTEMPTS_DAYS, now)
    logs = cutoff(settings.PARLOUR_KEEP_LOGIN_LOG_DAYS, now)
    return {
        "AccessAttempt": delete_in_batches(AccessAttempt.objects.filter(attempt_time__lt=attempts)),
        "AccessLog": delete_in_batches(AccessLog.objects.filter(attempt_time__lt=logs)),
        "AccessFailureLog": delete_in_batches(AccessFailureLog.objects.filter(attempt_time__lt=logs)),
    }
