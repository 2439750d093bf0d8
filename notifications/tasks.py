"""Celery tasks of the site's mail (docs/features.md, "E-mail when it is
your turn"), on the general queue (``CELERY_TASK_DEFAULT_QUEUE``), never the
live or the deadline one: a slow or dead mail server delays mail, never a
move or a clock.

- ``turn_mail`` (Celery beat, every PARLOUR_TURN_MAIL_SECONDS): runs each
  registered mail job (``notifications.mail.register_job``): the "your
  turn" digests and the reminders (``games.turn_mail``), which queue mails.
- ``send_mail``: one mail to one player, queued after the commit that
  decided it (``queue_mail``). A mail server that is down or answers 4xx
  makes it retry with exponential backoff (1 minute doubling to an hour,
  with jitter, 8 times: about 5 hours); a 5xx marks the address bounced.
"""

from __future__ import annotations

import logging
import smtplib

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from notifications import mail

log = logging.getLogger(__name__)

# Seconds, soft then hard (config/settings.py): one mail is one SMTP
# exchange (the mailer's own timeout is shorter); a run of the jobs is a few
# queries and a few hundred queued tasks.
MAIL_LIMITS = {"soft_time_limit": 60, "time_limit": 90}


@shared_task(ignore_result=True, **MAIL_LIMITS)
def turn_mail() -> None:
    """Run every registered mail job once (idempotent: each records what it
    queued, in the transaction that queues it)."""
    now = timezone.now()
    for name, job in mail.jobs().items():
        queued = job(now)
        if queued:
            log.info("turn mail: %s queued %s mails", name, queued)


@shared_task(bind=True, ignore_result=True, autoretry_for=(smtplib.SMTPException, OSError),
             retry_backoff=60, retry_backoff_max=3600, retry_jitter=True, max_retries=8, **MAIL_LIMITS)
def send_mail(self, user_id: int, kind: str, subject: str, template: str, context: dict) -> str:
    """Deliver one mail (``mail.deliver``): "sent", "skipped" or "bounced".
    A mail server that fails otherwise raises, and Celery retries."""
    outcome = mail.deliver(user_id, kind, subject, template, context)
    log.info("mail %s to user %s: %s", kind, user_id, outcome)
    return outcome


def queue_mail(user_id: int, kind: str, subject: str, template: str, context: dict) -> None:
    """Send ``send_mail`` with these arguments after the current transaction
    commits (at once outside one). ``context`` must be JSON: strings,
    numbers, lists and dicts (times as ISO strings)."""
    args = (user_id, kind, subject, template, context)
    # robust: a broker that cannot be reached loses this mail (logged), never the caller's change.
    transaction.on_commit(lambda: send_mail.delay(*args), robust=True)
