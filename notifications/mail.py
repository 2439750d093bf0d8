"""The site's mail to players (docs/features.md, "E-mail when it is your
turn"): who may be mailed a kind, the signed one-click unsubscribe link,
the message with its ``List-Unsubscribe`` headers (RFC 2369, RFC 8058), and
its delivery, which marks an address that an SMTP server refuses for good (5xx).

Mail is never sent here from a request or a move: ``notifications.tasks``
sends it, after the commit that queued it, on the general Celery queue.
What a mail says comes from the app that knows it (``games.turn_mail``).
"""

from __future__ import annotations

import email.policy
import logging
import smtplib
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db.models import Exists, OuterRef, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import languages
from accounts.models import User
from core.site_url import absolute
from notifications.models import KINDS, MailSettings

log = logging.getLogger(__name__)

_SALT = "notifications.unsubscribe"

#: Periodic mail jobs, name -> ``job(now)``, run by the ``turn_mail`` task
#: (registered by the apps that know what to tell: ``games.turn_mail``).
_jobs: dict[str, Callable[[datetime], int]] = {}


class BadUnsubscribeLink(ValueError):
    """An unsubscribe link that is forged, expired, for a kind that does not
    exist or for an account that is gone; the message says which."""


def register_job(name: str, job: Callable[[datetime], int]) -> None:
    """Run ``job(now)`` (returns how many mails it queued) at each turn-mail run."""
    _jobs[name] = job


def jobs() -> dict[str, Callable[[datetime], int]]:
    return dict(_jobs)


def blocked(kind: str, user_ref="user") -> Exists:
    """A condition on rows with a user column ``user_ref`` (a query's
    ``OuterRef`` path): that user switched ``kind`` off, or their address now
    is the one that bounced. Rows of users without settings are not blocked."""
    if kind not in KINDS:
        raise ValueError(f"unknown mail kind {kind!r}")
    return Exists(MailSettings.objects.filter(
        Q(**{kind: False}) | Q(bounced_address=OuterRef(f"{user_ref}__email")), user=OuterRef(user_ref)))


def mailable(kind: str, user_ref="user") -> Q:
    """A filter on rows with a user column ``user_ref``: the user may get
    mail of ``kind`` (an active account with a confirmed address, the kind
    switched on, the address not bounced)."""
    return (Q(**{f"{user_ref}__is_active": True}) & Q(**{f"{user_ref}__email_confirmed": True})
            & ~Q(**{f"{user_ref}__email": ""}) & ~blocked(kind, user_ref))


def settings_of(user_id: int) -> MailSettings:
    """The user's settings (defaults, unsaved, when they have no row)."""
    return MailSettings.objects.filter(user_id=user_id).first() or MailSettings(user_id=user_id)


# --- The unsubscribe link ------------------------------------------------------

def unsubscribe_token(user_id: int, kind: str) -> str:
    """A signed token naming ``user_id`` and ``kind`` (django.core.signing,
    with its time: it works for PARLOUR_UNSUBSCRIBE_DAYS)."""
    if kind not in KINDS:
        raise ValueError(f"unknown mail kind {kind!r}")
    return signing.dumps({"u": int(user_id), "k": kind}, salt=_SALT, compress=False)


def read_unsubscribe_token(token: str) -> tuple[User, str]:
    """(user, kind) a token names. Raises BadUnsubscribeLink for a forged or
    altered token, one older than PARLOUR_UNSUBSCRIBE_DAYS, or one whose
    account no longer exists."""
    try:
        data = signing.loads(token, salt=_SALT,
                             max_age=timedelta(days=settings.PARLOUR_UNSUBSCRIBE_DAYS))
    except signing.SignatureExpired:
        days = settings.PARLOUR_UNSUBSCRIBE_DAYS
        raise BadUnsubscribeLink(ngettext(
            "This unsubscribe link is more than %(days)d day old. Use the link in a newer mail, or sign in "
            "and change your mail settings.",
            "This unsubscribe link is more than %(days)d days old. Use the link in a newer mail, or sign in "
            "and change your mail settings.", days) % {"days": days}) from None
    except signing.BadSignature:
        raise BadUnsubscribeLink(_("This unsubscribe link is not one Parlour made (it may have been cut "
                                   "or changed). Copy the whole link from the mail.")) from None
    if not isinstance(data, dict) or data.get("k") not in KINDS or not isinstance(data.get("u"), int):
        raise BadUnsubscribeLink(_("This unsubscribe link is not one Parlour made."))
    user = User.objects.filter(pk=data["u"]).first()
    if user is None:
        raise BadUnsubscribeLink(_("The account this link was for no longer exists."))
    return user, data["k"]


def unsubscribe_url(user_id: int, kind: str) -> str:
    return absolute(settings.SITE_URL, reverse("mail_unsubscribe", args=[unsubscribe_token(user_id, kind)]))


def switch_off(user: User, kind: str) -> bool:
    """Switch ``kind`` off for ``user``; True when it was on."""
    if kind not in KINDS:
        raise ValueError(f"unknown mail kind {kind!r}")
    mail_settings = MailSettings.objects.get_or_create(user=user)[0]
    if not getattr(mail_settings, kind):
        return False
    MailSettings.objects.filter(user=user).update(**{kind: False})
    return True


# --- Delivery -------------------------------------------------------------------

class PlayerMail(EmailMultiAlternatives):
    """A mail whose header lines may be as long as RFC 5322 allows (998
    characters): folded at 78, a ``List-Unsubscribe`` link (one long word)
    would be MIME-encoded (``=?utf-8?q?...``), which mail programs do not
    read as a link."""

    def message(self, *, policy=email.policy.default):
        return super().message(policy=policy.clone(max_line_length=998))


def message(user: User, kind: str, subject: str, template: str, context: dict) -> PlayerMail:
    """The mail of ``kind`` to ``user``: ``template`` (a plain-text
    template) rendered in ``user``'s language with ``context`` plus ``user``, ``unsubscribe_url``
    ``kind_label`` and ``settings_url``; headers ``List-Unsubscribe`` (the link, a POST to
    which unsubscribes: RFC 8058) and ``List-Unsubscribe-Post``."""
    link = unsubscribe_url(user.pk, kind)
    with languages.speaking(user):  # docs/i18n.md "E-mail": the recipient's language
        body = render_to_string(template, {
            **context, "user": user, "kind": kind, "kind_label": KINDS[kind], "unsubscribe_url": link,
            "settings_url": absolute(settings.SITE_URL, reverse("mail_settings"))})
    return PlayerMail(
        subject=subject, body=body, from_email=settings.DEFAULT_FROM_EMAIL, to=[user.email],
        headers={"List-Unsubscribe": f"<{link}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                 "Auto-Submitted": "auto-generated"})


def permanent_refusal(error: smtplib.SMTPException) -> str | None:
    """The SMTP reply that refused the (one) recipient for good (a 5xx to
    RCPT or DATA), as "550 No such user"; None for anything that may pass
    later (a 4xx, a lost connection) or that is the sender's fault."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        codes = list(error.recipients.values())
        if codes and all(code >= 500 for code, _ in codes):
            code, text = codes[0]
            return f"{code} {_text(text)}"
    elif isinstance(error, smtplib.SMTPDataError) and error.smtp_code >= 500:
        return f"{error.smtp_code} {_text(error.smtp_error)}"
    return None


def _text(reply) -> str:
    return (reply.decode(errors="replace") if isinstance(reply, bytes) else str(reply))[:250]


def deliver(user_id: int, kind: str, subject: str, template: str, context: dict) -> str:
    """Send one mail of ``kind`` to ``user_id`` now, unless they may no longer
    get it (switched off since it was queued, no address or an unconfirmed
    one, address bounced).
    Returns "sent", "skipped" or "bounced" (the address is marked: an SMTP 5xx).
    Raises what the mail server raised for anything else (a 4xx, a server
    down): the task retries later."""
    user = User.objects.filter(pk=user_id).first()
    if user is None or not user.is_active or not user.email or not user.email_confirmed:
        return "skipped"
    mail_settings = settings_of(user_id)
    if not getattr(mail_settings, kind) or mail_settings.bounced(user.email):
        return "skipped"
    try:
        message(user, kind, subject, template, context).send()
    except smtplib.SMTPException as e:
        reason = permanent_refusal(e)
        if reason is None:
            raise
        MailSettings.objects.update_or_create(user_id=user_id, defaults={
            "bounced_address": user.email, "bounced_at": timezone.now(), "bounce_reason": reason})
        log.warning("mail to user %s bounced (%s): not mailed again until the address changes",
                    user_id, reason)
        return "bounced"
    return "sent"


def mark_digest(user_ids, now: datetime) -> None:
    """Record that a "your turn" digest went to each of ``user_ids`` at ``now``."""
    MailSettings.objects.bulk_create([MailSettings(user_id=u, last_digest_at=now) for u in user_ids],
                                     update_conflicts=True, unique_fields=["user"],
                                     update_fields=["last_digest_at"])


def mailable_users(kind: str, user_ids, digest_at: datetime | None = None) -> list[int]:
    """Of ``user_ids``, those who may get mail of ``kind`` (an active account
    with a confirmed address, the kind switched on, the address not bounced) and, with
    ``digest_at``, whose last "your turn" digest is over
    PARLOUR_DIGEST_EVERY_SECONDS before it. By primary keys only."""
    if kind not in KINDS:
        raise ValueError(f"unknown mail kind {kind!r}")
    held = Q(**{kind: False}) | Q(bounced_address=OuterRef("email"))
    if digest_at is not None:
        held |= Q(last_digest_at__gt=digest_at - timedelta(seconds=settings.PARLOUR_DIGEST_EVERY_SECONDS))
    return list(User.objects.filter(pk__in=user_ids, is_active=True, email_confirmed=True).exclude(email="")
                .exclude(Exists(MailSettings.objects.filter(held, user=OuterRef("pk"))))
                .values_list("pk", flat=True))
