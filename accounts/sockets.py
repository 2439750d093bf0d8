"""What every WebSocket consumer (match, queue, room, arena, the user socket)
shares that concerns its person: the user's own group and the session's,
signing in at the handshake, and closing when the session ends or a ban
arrives. ``ParlourConsumer`` builds on the platform's consumer
(core/sockets/consumer.py: the limits and the reading of a received frame,
the per-socket message budget, the cap on sockets per person and the
per-person share of Channels' database thread).

Every socket of a signed-in user joins ``user_group(user.pk)`` and its
session's group once it is let in (``ParlourConsumer.take_slot``), so
something that concerns the person rather than one page reaches all their
sockets at once: a ban sends ``{"type": "user.banned"}`` there and each page
consumer closes with CLOSE_BANNED (4003), which the pages explain and do not
reconnect after (the close codes and their texts: accounts/close_codes.py;
the user socket closes after the ban's note instead, notifications/consumers.py).

Sessions (accounts/socket_sessions.py): a socket is signed in at its
handshake; log-out (``end_session_sockets``, on Django's ``user_logged_out``)
closes the sockets of that session, and a password change or reset
(``password_changed``) those of every other session of the user, with
CLOSE_SIGNED_OUT (4002); each process re-checks its sockets' sessions every
``PARLOUR_WS_SESSION_CHECK_SECONDS`` as a backstop. Nothing of this runs per
received frame.

Signing in (``SocketAuthMiddleware``): the handshake's session and user
lookup runs once more on a fresh connection when the database ended its
connection (``core.database.retry_if_connection_lost``); lost twice, or
not done within ``SIGN_IN_SECONDS`` (the database away: lookups queue on
Channels' one database thread, each waiting for the pool), the socket is
accepted and closed with CLOSE_TRY_AGAIN (4013), after which the page
reconnects: never an HTTP 500, and never a handshake left unanswered until
daphne drops it (5 s), which a proxy counts as the web process failing.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from types import SimpleNamespace

from asgiref.sync import async_to_sync
from channels import auth as channels_auth
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings
from django.db import transaction
from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.translation import trans_real

from accounts import blocks, languages, socket_sessions
from accounts.close_codes import CLOSE_BANNED, CLOSE_SIGNED_OUT, CLOSE_TRY_AGAIN
from core import database
from core.sockets.consumer import SocketConsumer
from core.sockets.db_calls import retried

log = logging.getLogger(__name__)


def socket_language(scope) -> str:
    """The language one socket reads: the signed-in user's account choice
    (``User.language``), else Django's own choice for a request with the
    handshake's cookies and Accept-Language header
    (``trans_real.get_language_from_request``), else the default."""
    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False):
        chosen = languages.valid(getattr(user, "language", None))
        if chosen:
            return chosen
    headers = {name: value.decode("latin-1") for name, value in scope.get("headers", ())}
    cookies = scope.get("cookies")
    if cookies is None:  # not behind channels' CookieMiddleware (tests): the header's
        cookies = parse_cookie(headers.get(b"cookie", ""))
    accept = headers.get(b"accept-language", "")
    shim = SimpleNamespace(COOKIES=cookies, META={"HTTP_ACCEPT_LANGUAGE": accept}, path_info="/")
    return languages.valid(trans_real.get_language_from_request(shim)) or settings.LANGUAGE_CODE


#: The event a ban sends; consumers handle it as ``user_banned``.
BANNED_EVENT = "user.banned"


def user_group(user_id: int) -> str:
    """The group every socket of user ``user_id`` joins."""
    return f"user.{int(user_id)}"


def close_user_sockets(user_id: int) -> None:
    """Tell every open socket of ``user_id`` to close with CLOSE_BANNED.
    Call after commit (the ban must be visible to a socket that reconnects)."""
    async_to_sync(get_channel_layer().group_send)(user_group(user_id), {"type": BANNED_EVENT})


def end_session_sockets(session_key: str | None) -> None:
    """Close every open socket of the session ``session_key`` with
    CLOSE_SIGNED_OUT (4002): it logged out. Best effort (the session
    re-check is the backstop): a channel layer that cannot be reached is
    logged, never raised into the log-out."""
    if not session_key:
        return
    _send_quietly([(socket_sessions.session_group(session_key),
                    {"type": socket_sessions.SESSION_ENDED_EVENT})])


def logged_out(sender, request, user, **kwargs) -> None:
    """Django's ``user_logged_out`` signal (connected in accounts/apps.py),
    sent before the session is flushed: close that session's open sockets
    (``end_session_sockets``)."""
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if user is not None and key:
        transaction.on_commit(lambda: end_session_sockets(key))


def password_changed(user_id: int, old_key: str | None = None, new_key: str | None = None) -> None:
    """Close every open socket of ``user_id`` with CLOSE_SIGNED_OUT (4002):
    their password changed or was reset, so their other sessions are over.
    The sockets of the session that made the change (its key before the
    change, ``old_key``, and after, ``new_key``: Django renews it) stay, and
    are told its new key. Call after the change is committed. Best effort, as
    ``end_session_sockets``."""
    spare = [socket_sessions.session_group(key) for key in (old_key, new_key) if key]
    events = []
    if old_key and new_key and old_key != new_key:
        events.append((socket_sessions.session_group(old_key),
                       {"type": socket_sessions.SESSION_RENEWED_EVENT, "key": new_key}))
    events.append((user_group(user_id), {"type": socket_sessions.PASSWORD_CHANGED_EVENT, "spare": spare}))
    _send_quietly(events)


#: The event a block or an unblock sends to the blocker's sockets; consumers
#: handle it as ``blocks_changed``.
BLOCKS_CHANGED_EVENT = "blocks.changed"


def blocks_changed(user_id: int) -> None:
    """Tell every open socket of ``user_id`` that their block list changed
    (``accounts.blocks``): the sockets that carry chat load it again. Call
    after commit. Best effort, as ``end_session_sockets``: a socket that
    misses it loads the list at its next connect."""
    _send_quietly([(user_group(user_id), {"type": BLOCKS_CHANGED_EVENT})])


def _send_quietly(events: list[tuple[str, dict]]) -> None:
    """Send (group, event) pairs from synchronous code; log a failure."""
    async def send_all():
        layer = get_channel_layer()
        for group, event in events:
            await layer.group_send(group, event)

    try:
        async_to_sync(send_all)()
    except Exception as e:  # noqa: BLE001 - the session re-check closes them later
        log.warning("ws: %d session events not sent: %s", len(events), e)


#: The same, for other modules of accounts (``accounts.tokens``).
send_quietly = _send_quietly


#: Set (True) in a handshake's scope whose user lookup lost its database
#: connection twice, or took too long (``SocketAuthMiddleware``).
SCOPE_CONNECTION_LOST = "parlour_connection_lost"

#: Seconds a handshake waits for its sign-in lookup before it is told to try
#: again (4013): below daphne's 5 s handshake timeout.
SIGN_IN_SECONDS = 3.0


class SocketAuthMiddleware(channels_auth.AuthMiddleware):
    """Channels' AuthMiddleware (``scope["user"]`` from the session cookie)
    whose lookup is retried once on a fresh connection when the database
    ended the connection (module docstring, "Signing in"). Lost twice, or
    over ``SIGN_IN_SECONDS``:
    ``scope["user"]`` is anonymous and ``scope[SCOPE_CONNECTION_LOST]`` is
    True, and ``ParlourConsumer`` closes the socket with 4013."""

    async def resolve_scope(self, scope):
        try:
            user = await asyncio.wait_for(
                database_sync_to_async(retried)(channels_auth.get_user.func, scope), SIGN_IN_SECONDS)
        except (database.ConnectionLost, TimeoutError) as e:
            log.warning("ws %s: %s while reading the session", scope.get("path", "?"),
                        str(e) or f"no answer within {SIGN_IN_SECONDS} s")
            from django.contrib.auth.models import AnonymousUser

            user = AnonymousUser()
            scope[SCOPE_CONNECTION_LOST] = True
        scope["user"]._wrapped = user


def SocketAuthStack(inner):  # noqa: N802 - named as channels' AuthMiddlewareStack
    """Channels' AuthMiddlewareStack with ``SocketAuthMiddleware``."""
    return CookieMiddleware(SessionMiddleware(SocketAuthMiddleware(inner)))


class ParlourConsumer(SocketConsumer):
    """Base of every Parlour WebSocket consumer (config/routing.py): the
    platform's ``SocketConsumer`` (its limits, frame reading, slot and
    database gate: core/sockets/consumer.py) with its person's groups and
    session (module docstring). A handshake whose sign-in lost the database
    closes with 4013; a ban on the user's group closes with CLOSE_BANNED; the
    session's end (log-out, a password change elsewhere, the re-check) closes
    with CLOSE_SIGNED_OUT."""

    @functools.cached_property
    def language(self) -> str:
        """The language this socket reads (``socket_language``), read once:
        everything rendered for this socket alone (its snapshot, its error
        frames) is rendered in it."""
        return socket_language(self.scope)

    def words(self, text) -> str:
        """``text`` (a lazy translation, or a str) in this socket's language."""
        with translation.override(self.language):
            return str(text)

    #: The session this socket signed in with, once it is let in (None:
    #: anonymous, or not let in): its key, its group and its user's id.
    session_key: str | None = None
    session_group: str | None = None
    session_user_id: int | None = None

    async def take_slot(self) -> None:
        """Count this socket against its person's cap (``SocketConsumer.take_slot``).
        A signed-in person's socket then joins their user group and their
        session's group, and its session is re-checked every
        PARLOUR_WS_SESSION_CHECK_SECONDS (module docstring, "Sessions").
        Call once the socket is accepted and allowed in."""
        await super().take_slot()
        user = self.scope.get("user")
        if user is None or not getattr(user, "is_authenticated", False):
            return
        session = self.scope.get("session")
        key = getattr(session, "session_key", None) if session is not None else None
        groups = [user_group(user.pk)]
        if key:
            self.session_key, self.session_user_id = key, user.pk
            self.session_group = socket_sessions.session_group(key)
            groups.append(self.session_group)
            socket_sessions.watch.add(self)
        await self.join(*groups)

    async def websocket_connect(self, message):
        """Accept and close with 4013 a handshake whose session could not be
        read (``SocketAuthMiddleware``); else the consumer's ``connect``."""
        if self.scope.get(SCOPE_CONNECTION_LOST):
            await self.accept()
            await self.close(CLOSE_TRY_AGAIN)
            return
        await super().websocket_connect(message)

    #: The ids of the players whose chat this socket does not show (the user's
    #: blocks, ``accounts.blocks.blocked_ids``): set by the consumers that carry
    #: chat (``hides_chat``) when they let the socket in, empty elsewhere.
    hidden: frozenset[int] = frozenset()
    hides_chat = False

    def hides(self, event) -> bool:
        """Whether chat ``event`` (its ``"from"``: the sender's id) is one this socket does not show."""
        return bool(self.hidden) and event.get("from") in self.hidden

    async def blocks_changed(self, event):
        """The user blocked or unblocked someone: a socket that carries chat
        loads its hidden set again (one query); any other ignores it."""
        if self.hides_chat:
            self.hidden = await self.db(blocks.blocked_ids, self.scope["user"].pk)

    async def user_banned(self, event):
        """A ban arrived on the user's group: close with CLOSE_BANNED."""
        await self.close(CLOSE_BANNED)

    async def end_session(self, code: int) -> None:
        """This socket's session ended (module docstring, "Sessions"): close
        with ``code``, CLOSE_SIGNED_OUT (4002), or CLOSE_BANNED (4003) when the
        session re-check found the user banned."""
        await self.close(code)

    async def session_ended(self, event):
        """The session logged out."""
        await self.end_session(CLOSE_SIGNED_OUT)

    async def session_password_changed(self, event):
        """The user's password changed or was reset: close unless this socket
        belongs to the session that changed it (``event["spare"]``)."""
        if self.session_group is None or self.session_group not in event.get("spare", ()):
            await self.end_session(CLOSE_SIGNED_OUT)

    async def session_renewed(self, event):
        """The session goes on under a new key (``event["key"]``): follow it,
        so that its log-out and its re-check still find this socket."""
        key = event.get("key")
        if not isinstance(key, str) or not key or key == self.session_key:
            return
        old = self.session_group
        self.session_key, self.session_group = key, socket_sessions.session_group(key)
        await self.join(self.session_group)
        if old is not None and old in self.groups_joined:
            self.groups_joined = [g for g in self.groups_joined if g != old]
            await self.channel_layer.group_discard(old, self.channel_name)

    async def disconnect(self, code):
        if self.session_key is not None:
            socket_sessions.watch.discard(self)
        await super().disconnect(code)
