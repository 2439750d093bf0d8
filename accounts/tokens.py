"""Personal API tokens and bot accounts: the only writer of ``ApiToken`` rows
and of ``User.is_bot`` (STYLE habit 3), and the one lookup every API
request's bearer token goes through (docs/api.md "Tokens", "Bot accounts").

A token is ``plr_`` and 43 URL-safe characters (256 random bits). It is
shown once, when made; the database keeps its SHA-256 only, and its first
characters (``prefix``) so the owner can tell tokens apart. Scopes:

- ``read``: read this account's matches (ended ones as NDJSON, exports),
  its event stream, and the streams of matches it may watch;
- ``play``: play as this account (moves, challenges, rematches, chat,
  leaving). Only a bot account's token may hold it: rated play by script is
  what bot accounts are for, so a person's token never plays.

Revoking a token (or closing the account, or a ban) closes its open streams:
``revoke`` sends ``TOKEN_REVOKED_EVENT`` to the account's sockets' group
(``accounts.sockets.user_group``), which every API stream joins as well.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import sockets
from accounts.models import ApiToken, Rating, User
from core.errors import Refused

#: What a token may be allowed, in the order the settings page offers them.
SCOPES = ("read", "play")
#: The start of every token's text, so a leaked one is recognisable (secret scanners).
TOKEN_PREFIX = "plr_"
#: Live (unrevoked) tokens one account may hold.
MAX_TOKENS = 10
#: ``last_used_at`` is written at most this often per token (not on every request).
LAST_USED_EVERY = timedelta(minutes=1)
#: The event a revocation sends to the owner's group; API streams handle it as
#: ``api_token_revoked`` (``{"type": ..., "token": <ApiToken id>}``).
TOKEN_REVOKED_EVENT = "api.token_revoked"


class TokenRefused(Refused):
    """A refused token or bot request; ``message`` is safe to show. Nothing changed."""

    code = "token_refused"


def digest(text: str) -> str:
    """The hex SHA-256 of a token's text: what the database keeps."""
    return hashlib.sha256(text.encode()).hexdigest()


def make_token(user: User, name: str, scopes) -> tuple[ApiToken, str]:
    """Make a token for ``user`` named ``name`` (1..40 characters) with
    ``scopes`` (an iterable of ``SCOPES``, at least one). Returns the row and
    the token's text, which is never stored and cannot be shown again.
    Raises ``TokenRefused``: no name or scope, an unknown scope, ``play`` for
    an account that is not a bot, a banned or closed account, or
    ``MAX_TOKENS`` live tokens already."""
    name = (name or "").strip() if isinstance(name, str) else ""
    if not 1 <= len(name) <= 40:
        raise TokenRefused(_("Give the token a name of 1 to 40 characters."), "token_name")
    scopes = set(scopes or ())
    if not scopes or not scopes <= set(SCOPES):
        raise TokenRefused(_("Choose the token's scopes: read, play, or both."), "token_scopes")
    if "play" in scopes and not user.is_bot:
        raise TokenRefused(_("Only a bot account's token may play: a person plays on the site."),
                           "play_needs_bot")
    if user.is_banned or user.is_closed or not user.is_active:
        raise TokenRefused(_("This account cannot make tokens."), "account_closed")
    text = TOKEN_PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        # Lock the owner's row so two requests cannot pass MAX_TOKENS together.
        User.objects.select_for_update().filter(pk=user.pk).first()
        if ApiToken.objects.filter(user=user, revoked_at=None).count() >= MAX_TOKENS:
            raise TokenRefused(_("An account may hold %(n)d tokens: revoke one first.") % {"n": MAX_TOKENS},
                               "too_many_tokens")
        token = ApiToken.objects.create(
            user=user, name=name, digest=digest(text), prefix=text[: len(TOKEN_PREFIX) + 6],
            scopes=" ".join(s for s in SCOPES if s in scopes),
        )
    return token, text


def revoke(user: User, token_id) -> ApiToken:
    """Revoke ``user``'s token ``token_id``; its open streams close after
    commit. Revoking a revoked token changes nothing. Raises ``TokenRefused``
    for a token that is not ``user``'s (or no such token)."""
    try:
        token_id = int(token_id)
    except (TypeError, ValueError):
        raise TokenRefused(_("There is no such token."), "no_token") from None
    with transaction.atomic():
        token = ApiToken.objects.select_for_update().filter(pk=token_id, user=user).first()
        if token is None:
            raise TokenRefused(_("There is no such token."), "no_token")
        if token.revoked_at is None:
            token.revoked_at = timezone.now()
            token.save(update_fields=["revoked_at"])
            transaction.on_commit(lambda: _tell_streams(user.pk, [token.pk]))
    return token


def revoke_all(user_id: int) -> int:
    """Revoke every live token of ``user_id`` (closing the account); their
    streams close after commit. Returns how many were revoked."""
    ids = list(ApiToken.objects.filter(user_id=user_id, revoked_at=None).values_list("pk", flat=True))
    if ids:
        ApiToken.objects.filter(pk__in=ids).update(revoked_at=timezone.now())
        transaction.on_commit(lambda: _tell_streams(user_id, ids))
    return len(ids)


def _tell_streams(user_id: int, token_ids: list[int]) -> None:
    sockets.send_quietly([(sockets.user_group(user_id), {"type": TOKEN_REVOKED_EVENT, "token": pk})
                          for pk in token_ids])


def authenticate(text) -> ApiToken | None:
    """The live token whose text is ``text``, with its ``user`` loaded, or
    None (no such token, revoked, or its account closed or deactivated). A
    banned account's token is returned: callers refuse it with their own
    words (``user.is_banned``). Writes ``last_used_at`` at most every
    ``LAST_USED_EVERY``."""
    if not isinstance(text, str) or not text.startswith(TOKEN_PREFIX) or len(text) > 100:
        return None
    token = ApiToken.objects.select_related("user").filter(digest=digest(text), revoked_at=None).first()
    if token is None or not token.user.is_active or token.user.is_closed:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


def can_become_bot(user: User) -> bool:
    """True for an account that may become a bot: not one already, and no
    rated match played in any game (docs/api.md "Bot accounts")."""
    return not user.is_bot and not Rating.objects.filter(user=user, games__gt=0).exists()


def make_bot(user: User) -> User:
    """Make ``user`` a bot account, for good. Raises ``TokenRefused`` when it
    is one already or has played a rated match."""
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.is_bot:
            raise TokenRefused(_("This account is a bot already."), "already_bot")
        if not can_become_bot(locked):
            raise TokenRefused(_("An account that has played a rated match cannot become a bot."),
                               "rated_account")
        User.objects.filter(pk=user.pk).update(is_bot=True)
    user.is_bot = True
    return user
