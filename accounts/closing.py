"""Closing an account (docs/features.md "Closing your account"): the row is
anonymised in place, never deleted. Seats point at it (PROTECT) and a seat must
stay a person's for its match to replay; rating changes point at it too
(CASCADE): deleting the row would take other players' records with it.

``close_account`` checks the password, then, in one transaction:

- sends ``account_closing`` (keyword argument ``user``, the account still as
  it was): each app above this one takes the account out of what it runs —
  ``games`` leaves its live and turn-based matches by the leave rule,
  ``matchmaking`` takes it out of the queues and its open challenges,
  ``arenas`` withdraws it, ``notifications`` deletes its mail settings,
  ``moderation`` takes its name out of the audit log. A receiver that
  raises undoes the whole closing;
- reserves the old name for ``RESERVED_DAYS`` (``ReleasedName``);
- renames the account to a tombstone (``deleted-`` and 12 random hex digits:
  pages show "deleted player", ``User.display_name``), clears its e-mail,
  names, bio and time zone, makes its password unusable (every session's
  auth hash changes, so each is refused at its next request) and the account
  inactive; takes its old name out of its ban reason (the ban itself, and
  when it ends, stay); deletes its holidays and its log-in records (django-axes);
  revokes its API tokens (``tokens.revoke_all``: their streams close after commit).

No foreign key changes: matches, moves, seats, ratings and rating changes
stay, and other players' records with them. After commit, the account's open
sockets are told to close.
"""

from __future__ import annotations

import re
import secrets
from datetime import datetime, timedelta

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import sockets, tokens
from accounts.models import DELETED_NAME, TOMBSTONE_PREFIX, Holiday, ReleasedName, User

#: How long a closed account's old name stays out of reach of sign-up.
RESERVED_DAYS = 30

account_closing = Signal()


class CloseError(ValueError):
    """The account cannot be closed as asked; the message says why."""


def name_reserved(name: str, now: datetime | None = None) -> bool:
    """Whether sign-up must refuse ``name``: it names a closed account's
    tombstone, or a closed account's old name released less than
    ``RESERVED_DAYS`` ago (any case)."""
    if name.lower().startswith(TOMBSTONE_PREFIX):
        return True
    since = (now or timezone.now()) - timedelta(days=RESERVED_DAYS)
    return ReleasedName.objects.filter(name=name.lower(), released_at__gt=since).exists()


def check_close_account(user, password: str) -> None:
    """Raises CloseError unless ``user`` is an open account and ``password`` is its password."""
    if user is None or not user.is_authenticated:
        raise CloseError(_("Log in to close your account."))
    if user.is_closed or not user.is_active:
        raise CloseError(_("This account is already closed."))
    if not password or not user.check_password(password):
        raise CloseError(_("That is not your password; nothing was changed."))


def close_account(user, password: str, now: datetime | None = None) -> User:
    """Close ``user``'s account if ``password`` is its password (raises
    CloseError, changing nothing, if not). Returns the anonymised row."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        check_close_account(locked, password)
        account_closing.send(sender=User, user=locked)
        old_name = locked.username
        ReleasedName.objects.update_or_create(name=old_name.lower(), defaults={"released_at": now})
        AccessAttempt.objects.filter(username__iexact=old_name).delete()
        AccessLog.objects.filter(username__iexact=old_name).delete()
        AccessFailureLog.objects.filter(username__iexact=old_name).delete()
        Holiday.objects.filter(user=locked).delete()
        tokens.revoke_all(locked.pk)  # its programs are refused at once; their streams close after commit
        locked.ban_reason = scrub(locked.ban_reason, old_name)
        _anonymise(locked)
        # Its sockets close as when a password changes (4002, "no longer logged in"), not banned.
        transaction.on_commit(lambda: sockets.password_changed(locked.pk))
    return locked


def scrub(text: str, name: str) -> str:
    """``text`` with every mention of the name ``name`` (any case, as a whole
    word) replaced by "deleted player": what moderation keeps of a closed
    account's ban reasons and audit entries."""
    if not text or not name:
        return text
    return re.sub(rf"(?<![\w.@+-]){re.escape(name)}(?![\w.@+-])", DELETED_NAME, text, flags=re.IGNORECASE)


def _anonymise(user: User) -> None:
    """The personal fields of ``user`` cleared, in place."""
    user.username = f"{TOMBSTONE_PREFIX}{secrets.token_hex(6)}"
    user.email = user.pending_email = ""
    user.first_name = user.last_name = ""
    user.bio = ""
    user.time_zone = ""
    user.is_active = False
    user.is_staff = user.is_superuser = False
    user.set_unusable_password()
    user.save()
    user.groups.clear()
    user.user_permissions.clear()
