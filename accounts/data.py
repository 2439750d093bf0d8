"""Download your data (docs/features.md "Closing your account and your
data"): one JSON file of an account — its profile fields, its ratings, its
API tokens (name, prefix, scopes, dates: never the digest), and
what each app above this one adds through ``collect_data``: ``games`` its
rating changes and its ended matches (each as the per-match export,
``games.exports.match_data``), ``notifications`` its mail settings,
``matchmaking`` its challenge setting, ``moderation`` the reports it filed.

An account with at most ``DIRECT_MATCHES`` seats gets the file at once; a
larger one gets it from ``accounts.tasks.export_data`` (Celery, the general
queue): the file is stored (``DataExport``) and a link mailed to the owner.
The link is signed (``django.core.signing``, salt ``SALT``), names the
export and its owner, and expires after ``LINK_DAYS``: it downloads only
for its owner, logged in.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.core.mail import send_mail
from django.dispatch import Signal
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import languages
from accounts.models import DataExport, User
from core.site_url import absolute

FORMAT = "parlour-account-1"
#: At most this many seats (matches played): the file is made during the request.
DIRECT_MATCHES = 200
#: A mailed link works this long; the stored file goes with it.
LINK_DAYS = 7
SALT = "accounts.data.download"

#: Sent with keyword argument ``user``; each receiver returns a dict of the
#: sections it adds (JSON values), keyed by section name.
collect_data = Signal()


class LinkError(ValueError):
    """A download link that is not valid (forged or not this account's) or has
    expired; ``gone``: it was valid once (expired, or its file deleted)."""

    def __init__(self, message: str, gone: bool = False):
        super().__init__(message)
        self.gone = gone


def build(user: User, now: datetime | None = None) -> dict:
    """The whole file of ``user``'s data as a dict."""
    data = {
        "format": FORMAT,
        "generated_at": (now or timezone.now()).isoformat(),
        "account": {
            "username": user.username,
            "email": user.email,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "bio": user.bio,
            "time_zone": user.time_zone,
            "date_joined": user.date_joined.isoformat(),
            "bot": user.is_bot,
            "last_login": user.last_login.isoformat() if user.last_login else None,
        },
        "ratings": [
            {"game": r.kind, "rating": r.rating, "peak": r.peak, "rated_games": r.games,
             "updated_at": r.updated_at.isoformat()}
            for r in user.ratings.order_by("kind")
        ],
        "holidays": [
            {"first_day": h.starts_on.isoformat(), "last_day": h.ends_on.isoformat()}
            for h in user.holidays.all()
        ],
        # Revoked ones too (what a program could do as the account, and when); never the digest.
        "api_tokens": [
            {"name": t.name, "prefix": t.prefix, "scopes": t.scopes.split(),
             "created_at": t.created_at.isoformat(),
             "last_used_at": t.last_used_at.isoformat() if t.last_used_at else None,
             "revoked_at": t.revoked_at.isoformat() if t.revoked_at else None}
            for t in user.api_tokens.order_by("created_at", "pk")
        ],
    }
    for _receiver, sections in collect_data.send(sender=User, user=user):
        data.update(sections)
    return data


def dumps(data: dict) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False)


def is_large(user: User) -> bool:
    """Whether ``user``'s file is made by Celery and mailed (more than ``DIRECT_MATCHES`` seats)."""
    return user.seats.count() > DIRECT_MATCHES


def make_export(user_id: int, now: datetime | None = None) -> DataExport | None:
    """Store ``user_id``'s file, replacing any earlier one, and mail its link
    (if the account has a confirmed address). None for an account gone or closed."""
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or user.is_closed:
        return None
    now = now or timezone.now()
    export = DataExport.objects.create(user=user, created_at=now, content=dumps(build(user, now)))
    DataExport.objects.filter(user=user).exclude(pk=export.pk).delete()
    if user.email and user.email_confirmed:  # mail goes to confirmed addresses only
        with languages.speaking(user):
            subject = _("Your Parlour data")
            body = render_to_string("accounts/mail/data.txt", {"user": user, "days": LINK_DAYS,
                                                               "link": link(export)})
        send_mail(subject, body, None, [user.email])
    return export


def link(export: DataExport) -> str:
    token = signing.dumps({"x": export.pk, "u": export.user_id}, salt=SALT)
    return absolute(settings.SITE_URL, reverse("data_download", args=[token]))


def read_link(token: str, user) -> DataExport:
    """The export a link names, for ``user`` only. Raises LinkError."""
    try:
        payload = signing.loads(token, salt=SALT, max_age=timedelta(days=LINK_DAYS))
    except signing.SignatureExpired:
        raise LinkError(ngettext("This link has expired (links work for %(days)d day): "
                                 "ask for your data again.",
                                 "This link has expired (links work for %(days)d days): "
                                 "ask for your data again.", LINK_DAYS) % {"days": LINK_DAYS},
                        gone=True) from None
    except signing.BadSignature:
        raise LinkError(_("This link is not valid.")) from None
    if not isinstance(payload, dict) or payload.get("u") != user.pk:
        raise LinkError(_("This link is not valid for the account you are logged in as."))
    export = DataExport.objects.filter(pk=payload.get("x"), user=user).first()
    if export is None:
        raise LinkError(_("This file is no longer kept: ask for your data again."), gone=True)
    return export


def clear_old_exports(now: datetime | None = None) -> int:
    """Delete the files whose links have expired (the daily housekeeping)."""
    cutoff = (now or timezone.now()) - timedelta(days=LINK_DAYS)
    deleted = DataExport.objects.filter(created_at__lt=cutoff).delete()[0]
    return deleted
