"""Verified e-mail (docs/features.md "Confirming your e-mail"; docs/decisions.md
"Verified e-mail"): the confirmation link, asking for one, and the one check
that ranked play, arenas and challenges make.

A link carries a token of Django's signing (``signing.dumps``: HMAC with
SECRET_KEY, with its time) naming the account and the address; it works for
PARLOUR_EMAIL_CONFIRM_DAYS and once: it confirms only while that address is
the account's unconfirmed one (a sign-up) or its waiting new one (a change),
so a used link, or one a newer address replaced, changes nothing.

No oracle: asking for a link never tells whether another account holds the
address. The mail task (``accounts.tasks.send_address_mail``, queued after
the commit by ``queue_address_mail``) decides what the address is told: a link, or "someone tried to use your
address" when another account confirmed it already.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.models import User
from core.errors import Refused

_SALT = "accounts.confirm-email"

#: The refusal of ranked play, arenas and challenges to an account whose
#: address is not confirmed (the page's banner has the "send it again" button).
UNCONFIRMED = gettext_lazy(
    "Confirm your e-mail address first: ranked play, arenas and challenges need it. "
    "Click the link we mailed to %(email)s, or have it sent again from your account's e-mail "
    "page. Matches against the computer and in rooms are open meanwhile.")


class UnconfirmedEmail(Refused):
    code = "unconfirmed-email"


class BadConfirmationLink(ValueError):
    """A confirmation link that is forged, expired, used, replaced, or for an
    address another account confirmed first; the message says which."""


def check_confirmed(user) -> None:
    """Raise UnconfirmedEmail unless ``user``'s address is confirmed: the one
    check of ranked play (live and turn-based queues), arenas and challenges.
    No query: the field is on the user row already loaded."""
    if user is not None and getattr(user, "is_authenticated", False) and not user.email_confirmed:
        raise UnconfirmedEmail(UNCONFIRMED % {"email": user.email})


def token(user_id: int, address: str) -> str:
    return signing.dumps({"u": int(user_id), "e": address}, salt=_SALT, compress=False)


def read_token(value: str) -> tuple[User, str]:
    """(user, address) a link names, while the link may still confirm it.
    Raises BadConfirmationLink otherwise (another account confirmed the
    address first included: the page shows no button that would fail); reads only."""
    days = settings.PARLOUR_EMAIL_CONFIRM_DAYS
    try:
        data = signing.loads(value, salt=_SALT, max_age=timedelta(days=days))
    except signing.SignatureExpired:
        raise BadConfirmationLink(ngettext(
            "This confirmation link is more than %(days)d day old. Sign in and have a new one "
            "sent from your e-mail page.",
            "This confirmation link is more than %(days)d days old. Sign in and have a new one "
            "sent from your e-mail page.", days) % {"days": days}) from None
    except signing.BadSignature:
        raise BadConfirmationLink(_("This confirmation link is not one Parlour made (it may have been cut "
                                    "or changed). Copy the whole link from the mail.")) from None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int) or not isinstance(data.get("e"), str):
        raise BadConfirmationLink(_("This confirmation link is not one Parlour made."))
    user = User.objects.filter(pk=data["u"], is_active=True).first()
    if user is None:
        raise BadConfirmationLink(_("The account this link was for no longer exists."))
    waiting_how(user, data["e"])
    if taken_by_another(data["e"], user.pk):
        raise _taken(data["e"])
    return user, data["e"]


def _taken(address: str) -> BadConfirmationLink:
    return BadConfirmationLink(_("Another account confirmed %(address)s first, so it cannot be this "
                                 "account's too. If that account is yours, log in to it (or reset its "
                                 "password); else give this account another address.")
                               % {"address": address})


def waiting_how(user: User, address: str) -> str:
    """"signup" or "change": how ``address`` waits on ``user``; raises
    BadConfirmationLink when it does not (the link was used, or replaced)."""
    if user.email.lower() == address.lower():
        if user.email_confirmed:
            raise BadConfirmationLink(_("%(address)s is confirmed already: this link has been used.")
                                      % {"address": address})
        return "signup"
    if user.pending_email and user.pending_email.lower() == address.lower():
        return "change"
    raise BadConfirmationLink(_("This link is no longer valid: the account's address changed after it "
                                "was sent. Use the link in the newest mail."))


def taken_by_another(address: str, user_id: int) -> bool:
    return User.objects.filter(email__iexact=address, email_confirmed=True).exclude(pk=user_id).exists()


def confirm(value: str) -> User:
    """Confirm the address a link names: it becomes the account's, confirmed.
    Raises BadConfirmationLink (and nothing changes) for a bad link, or when
    another account confirmed the address first."""
    user, address = read_token(value)
    taken = _taken(address)
    try:
        with transaction.atomic():
            user = User.objects.select_for_update().get(pk=user.pk)
            waiting_how(user, address)
            if taken_by_another(address, user.pk):
                raise taken
            User.objects.filter(pk=user.pk).update(email=address, email_confirmed=True, pending_email="")
    except IntegrityError:  # confirmed by another at the same instant: the unique constraint settles it
        raise taken from None
    user.refresh_from_db()
    return user


def waiting_address(user: User) -> str:
    """The address of ``user`` that waits for its link: their new one, else
    their unconfirmed one; "" when none waits."""
    return user.pending_email or ("" if user.email_confirmed else user.email)


def do_change_email(user: User, address: str) -> bool:
    """``user`` asks for ``address``: an unconfirmed account's address is
    replaced at once (a typo at sign-up); a confirmed one keeps its address
    until the new one's link is clicked. True when a link is to be sent
    (``accounts.tasks.queue_address_mail``); asking for the confirmed
    address the account has drops a waiting change and is False."""
    address = User.objects.normalize_email(address)
    with transaction.atomic():
        if user.email_confirmed and user.email.lower() == address.lower():
            User.objects.filter(pk=user.pk).update(pending_email="")
            user.pending_email = ""
            return False
        if user.email_confirmed:
            user.pending_email = address
        else:
            user.email = address
        User.objects.filter(pk=user.pk).update(email=user.email, pending_email=user.pending_email)
    return True
