"""Celery tasks of the accounts, on the general queue: the daily
housekeeping (Celery beat, CELERY_BEAT_SCHEDULE "housekeeping-accounts"),
the password-reset mail (``send_password_reset``: looked up and sent by a
worker, so the request takes the same time whether or not an account has the
address),
the mail to an address waiting for its confirmation (``send_address_mail``,
queued after the commit by ``queue_address_mail``; docs/features.md
"Confirming your e-mail"), and a large account's data file (``accounts.data``)."""

import logging
import smtplib

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts import confirmation, data, languages
from accounts.forms import ConfirmedPasswordResetForm
from accounts.housekeeping import clear_expired_sessions, clear_old_login_records
from accounts.models import User
from core import ratelimits
from core.site_url import absolute

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
             retry_backoff_max=3600, retry_jitter=True, max_retries=8, soft_time_limit=60, time_limit=90)
def send_address_mail(user_id: int, address: str, language: str | None = None) -> str:
    """Mail ``address``, which waits on ``user_id`` for its confirmation: the
    link, or, when another account confirmed the address already, "someone
    tried to sign up with (or move an account to) your address" and no link
    (the request that queued this said the same either way: no oracle).
    "sent", "taken" (that mail sent), or "skipped": the address no longer
    waits, or it had PARLOUR_ADDRESS_MAIL_RATE mails already. A mail server
    that is down or answers 4xx makes Celery retry. Written in the account's
    language, else ``language`` (the request's that queued it), else English
    (docs/i18n.md "E-mail")."""
    user = User.objects.filter(pk=user_id, is_active=True).first()
    try:
        how = confirmation.waiting_how(user, address) if user is not None else None
    except confirmation.BadConfirmationLink:
        how = None
    if how is None or not ratelimits.hit(settings.PARLOUR_ADDRESS_MAIL_RATE, "address-mail", address.lower()):
        log.info("address mail for user %s: skipped", user_id)
        return "skipped"
    context = {"user": user, "address": address, "change": how == "change",
               "site": absolute(settings.SITE_URL, "/"),
               "login_url": absolute(settings.SITE_URL, reverse("login")),
               "reset_url": absolute(settings.SITE_URL, reverse("password_reset")),
               "days": settings.PARLOUR_EMAIL_CONFIRM_DAYS}
    with languages.speaking(user, language):
        if confirmation.taken_by_another(address, user_id):
            outcome, subject, template = "taken", _("Someone tried to use your address on Parlour"), "taken"
        else:
            link = reverse("email_confirm", args=[confirmation.token(user_id, address)])
            context["link"] = absolute(settings.SITE_URL, link)
            outcome, subject, template = "sent", _("Confirm your e-mail address on Parlour"), "confirm"
        body = render_to_string(f"accounts/mail/{template}.txt", context)
    EmailMessage(subject=subject, body=body, from_email=settings.DEFAULT_FROM_EMAIL, to=[address],
                 headers={"Auto-Submitted": "auto-generated"}).send()
    log.info("address mail for user %s: %s", user_id, outcome)
    return outcome


def queue_address_mail(user: User) -> bool:
    """Queue ``send_address_mail`` for ``user``'s waiting address after the
    current transaction commits; False when no address waits."""
    address = confirmation.waiting_address(user)
    if not address:
        return False
    # The request's language goes along, for an account that chose none yet.
    args = (user.pk, address, languages.current())
    # robust: a broker that cannot be reached loses this mail (logged), never the
    # account; "send the link again" remains.
    transaction.on_commit(lambda: send_address_mail.delay(*args), robust=True)
    return True


@shared_task(ignore_result=True, autoretry_for=(smtplib.SMTPException, OSError), retry_backoff=60,
             retry_backoff_max=3600, retry_jitter=True, max_retries=5, soft_time_limit=300, time_limit=330)
def export_data(user_id: int) -> None:
    """Make ``user_id``'s data file and mail its link (``accounts.data.make_export``).
    A mail server that fails makes it retry, with backoff: a retry makes the
    file again and replaces the first."""
    made = data.make_export(user_id)
    log.info("data export of user %s: %s", user_id, "made" if made else "nothing (account closed)")


@shared_task(ignore_result=True, soft_time_limit=60, time_limit=90)
def send_password_reset(email: str, domain: str, use_https: bool, templates: dict,
                        language: str | None = None) -> int:
    """Mail a reset link to each active account whose confirmed address is
    ``email`` (``ConfirmedPasswordResetForm``: none, usually one), with links
    to ``domain`` (the host the form was posted to). ``templates``: the
    reset view's ``subject_template_name``, ``email_template_name`` and
    ``html_email_template_name``. Returns how many accounts were mailed (the
    log says only that number). A mail server that fails is logged by
    Django's form ("Failed to send password reset email to <user id>") and
    not retried: the person asks again. Each mail is in its account's
    language, else ``language`` (the reset form's), else English."""
    form = ConfirmedPasswordResetForm({"email": email}, language=language)
    if not form.is_valid():
        return 0
    users = list(form.get_users(form.cleaned_data["email"]))
    form.save(domain_override=domain, use_https=use_https, from_email=None, **templates)
    log.info("password reset mail: %d accounts", len(users))
    return len(users)
