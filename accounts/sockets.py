"""What every WebSocket consumer (match, queue, room, arena, the user socket)
shares: the user's own group and the session's, the limits and the reading
of a received frame, the per-socket message budget, the cap on sockets per
person and the per-person share of Channels' database thread.

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

Limits (``ParlourConsumer.websocket_receive``): every received frame passes
``admit`` (a frame over ``PARLOUR_WS_MAX_FRAME`` bytes closes the socket with
4009, one over the message budget with 4008) before any consumer code sees
it. A consumer handles frames in ``receive`` (or ``on_<type>``); defining
``websocket_receive``, ``dispatch`` or ``admit`` is refused when the class is
made (``ParlourConsumer.__init_subclass__``), so none can skip the limits.

Sockets per person (README "Decisions"): at most
``settings.PARLOUR_WS_PER_USER`` open sockets per signed-in user and
``PARLOUR_WS_PER_ADDRESS`` anonymous ones per client address, counted in
Redis so every server process shares the count (``SocketSlots``). The
newest socket wins: one over the cap closes that person's oldest with
CLOSE_TOO_MANY_SOCKETS (4029). So a socket whose client vanished without
closing (still open as far as the server knows) never blocks a reconnect,
and one person never holds more than the cap.

Signing in (``SocketAuthMiddleware``): the handshake's session and user
lookup runs once more on a fresh connection when the database ended its
connection (``core.database.retry_if_connection_lost``); lost twice, or
not done within ``SIGN_IN_SECONDS`` (the database away: lookups queue on
Channels' one database thread, each waiting for the pool), the socket is
accepted and closed with CLOSE_TRY_AGAIN (4013), after which the page
reconnects: never an HTTP 500, and never a handshake left unanswered until
daphne drops it (5 s), which a proxy counts as the web process failing.

Group frames (``ParlourConsumer.take``): the events a consumer lists in
``direct_types`` (a match's frames, a user socket's rows and notes) are
handed to it by the channel layer as they arrive from Redis, read once per
process, and written at once, without a trip through the socket's queue
(core/channel_layer.py). While a consumer reads and sends a view (a
snapshot, a panel: ``holding``) they wait, and follow it in order.

Database calls (``ParlourConsumer.db``): a consumer's calls on Channels' one
database thread (access checks, snapshots) go through a per-person gate of
``PARLOUR_WS_DB_CALLS_PER_USER`` at once in each process, so one person's
hundreds of snapshot requests wait their turn in the event loop, not in the
thread's queue ahead of everyone else's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import weakref

from aiolimiter import AsyncLimiter
from asgiref.sync import async_to_sync
from autobahn.exception import Disconnected
from channels import auth as channels_auth
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings
from django.db import transaction
from limits import parse as parse_rate
from redis import asyncio as aioredis
from redis.exceptions import RedisError

from accounts import socket_sessions
from accounts.close_codes import (
    CLOSE_BANNED,
    CLOSE_FLOODING,
    CLOSE_SIGNED_OUT,
    CLOSE_TOO_LARGE,
    CLOSE_TOO_MANY_SOCKETS,
    CLOSE_TRY_AGAIN,
)
from core import database, proxy

log = logging.getLogger(__name__)

#: The event a ban sends; consumers handle it as ``user_banned``.
BANNED_EVENT = "user.banned"
#: The event that closes an evicted socket (sent to its channel name).
EVICTED_EVENT = "sockets.evicted"


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


def message_budget() -> AsyncLimiter:
    """A new per-socket message budget for ``settings.PARLOUR_WS_RATE``
    (e.g. ``"20/5second"``: 20 messages at once, refilled at 20 per 5 s).

    A leaky bucket owned by the consumer (aiolimiter): one socket lives in
    one process, so nothing is shared, and a check touches no storage, no
    thread and no other socket. Create it inside the event loop (in
    ``connect``, or lazily, as ``ParlourConsumer.admit`` does)."""
    item = parse_rate(settings.PARLOUR_WS_RATE)
    return AsyncLimiter(item.amount, item.get_expiry())


def socket_owner(scope) -> str:
    """Whose socket this is, for the cap and the database gate:
    ``"u:<user id>"`` for a signed-in user, else ``"a:<client address>"``
    (the site's one notion of the client's address, ``core.proxy``: behind
    a trusted proxy the entry it added; "a:?" when there is none)."""
    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False):
        return f"u:{user.pk}"
    return f"a:{proxy.scope_client_ip(scope) or '?'}"


def socket_cap(owner: str) -> int:
    """The most sockets ``owner`` (see ``socket_owner``) may hold open."""
    return settings.PARLOUR_WS_PER_USER if owner.startswith("u:") else settings.PARLOUR_WS_PER_ADDRESS


# KEYS: joined (zset: socket -> when it connected), seen (zset: socket -> when
# it last said it was alive). ARGV: socket, cap, seconds after which an entry
# that was not refreshed is dropped (its process is gone). Returns the sockets
# evicted to make room, oldest first.
_ADMIT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local stale = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[3]))
for _, member in ipairs(stale) do
  redis.call('ZREM', KEYS[1], member)
  redis.call('ZREM', KEYS[2], member)
end
local top = redis.call('ZREVRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if top[2] and tonumber(top[2]) >= now then now = tonumber(top[2]) + 0.000001 end
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZADD', KEYS[2], now, ARGV[1])
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[2])
local evicted = {}
if over > 0 then
  evicted = redis.call('ZRANGE', KEYS[1], 0, over - 1)
  for _, member in ipairs(evicted) do
    redis.call('ZREM', KEYS[1], member)
    redis.call('ZREM', KEYS[2], member)
  end
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
return evicted
"""

# KEYS: the joined and seen keys of each socket in turn (joined 1, seen 1,
# joined 2, ...). ARGV: seconds to keep, then the sockets, in the same order.
# Each socket still here is seen now and its keys kept. (Gone, e.g. evicted
# a moment ago: nothing; the eviction closes it.) Returns how many were here.
_REFRESH = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local alive = 0
for i = 2, #ARGV do
  local joined, seen = KEYS[2 * i - 3], KEYS[2 * i - 2]
  if redis.call('ZSCORE', joined, ARGV[i]) then
    redis.call('ZADD', seen, now, ARGV[i])
    redis.call('EXPIRE', joined, ARGV[1])
    redis.call('EXPIRE', seen, ARGV[1])
    alive = alive + 1
  end
end
return alive
"""

#: Sockets refreshed by one script call (``SocketSlots.refresh``): a call
#: holds Redis for about a millisecond per few hundred sockets.
REFRESH_BATCH = 500


class SocketSlots:
    """The open sockets of each person, in Redis (one client per event loop).

    Each socket of ``owner`` is an entry under ``<prefix>:<owner>``: when it
    connected and when it last refreshed (every PARLOUR_WS_SLOT_SECONDS; an
    entry not refreshed for three times that is dropped, so the sockets of a
    server process that died stop counting). Redis errors are logged and
    the socket is let in uncounted: a cap must not take the site down.

    The refreshes are the process's, not each socket's: the sockets a
    process holds (``hold``) are refreshed together by one task per event
    loop, in one script call per ``REFRESH_BATCH`` sockets, instead of a
    task and a Redis call per socket per period (docs/benchmarks.md)."""

    def __init__(self):
        self._clients: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        # Per event loop: the sockets held open ({socket: owner}), and the
        # task refreshing them while there are any.
        self._held: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._keepers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def _client(self):
        loop = asyncio.get_running_loop()
        entry = self._clients.get(loop)
        if entry is None:
            client = aioredis.Redis.from_url(settings.REDIS_URL, **settings.REDIS_CLIENT_TIMEOUTS)
            entry = (client, client.register_script(_ADMIT), client.register_script(_REFRESH))
            self._clients[loop] = entry
        return entry

    @staticmethod
    def _keys(owner: str) -> list[str]:
        base = f"{settings.PARLOUR_WS_SLOT_PREFIX}:{owner}"
        return [f"{base}:joined", f"{base}:seen"]

    @staticmethod
    def keep_seconds() -> int:
        return max(1, int(3 * settings.PARLOUR_WS_SLOT_SECONDS))

    async def admit(self, owner: str, socket: str) -> list[str]:
        """Count ``socket`` (its channel name) for ``owner``; returns the
        channel names of ``owner``'s oldest sockets, now uncounted, that must
        close to keep within ``socket_cap(owner)`` (usually none)."""
        _client, admit, _refresh = self._client()
        try:
            evicted = await admit(keys=self._keys(owner),
                                  args=[socket, socket_cap(owner), self.keep_seconds()])
        except (RedisError, OSError) as e:
            log.warning("ws: socket cap not checked for %s: %s", owner, e)
            return []
        return [m.decode() if isinstance(m, bytes) else m for m in evicted]

    async def refresh(self, held: list[tuple[str, str]]) -> None:
        """Mark each (socket, owner) of ``held`` alive (see the class), in
        one script call per ``REFRESH_BATCH``."""
        _client, _admit, refresh = self._client()
        keep = self.keep_seconds()
        for start in range(0, len(held), REFRESH_BATCH):
            batch = held[start:start + REFRESH_BATCH]
            keys = [key for _socket, owner in batch for key in self._keys(owner)]
            try:
                await refresh(keys=keys, args=[keep, *(socket for socket, _owner in batch)])
            except (RedisError, OSError) as e:
                log.warning("ws: %d socket slots not refreshed: %s", len(batch), e)

    def hold(self, owner: str, socket: str) -> None:
        """Keep ``socket`` (admitted for ``owner``) counted while it is open:
        this event loop's keeper refreshes it every PARLOUR_WS_SLOT_SECONDS
        until ``let_go``."""
        loop = asyncio.get_running_loop()
        held = self._held.setdefault(loop, {})
        held[socket] = owner
        keeper = self._keepers.get(loop)
        if keeper is None or keeper.done():
            self._keepers[loop] = loop.create_task(self._keep(held))

    def let_go(self, socket: str) -> None:
        """Stop refreshing ``socket`` (it is closing; ``release`` uncounts it)."""
        loop = asyncio.get_running_loop()
        held = self._held.get(loop)
        if held is None:
            return
        held.pop(socket, None)
        if not held:  # no task left pending when the loop ends
            keeper = self._keepers.pop(loop, None)
            if keeper is not None:
                keeper.cancel()

    async def _keep(self, held: dict[str, str]) -> None:
        try:
            while held:
                await asyncio.sleep(settings.PARLOUR_WS_SLOT_SECONDS)
                await self.refresh(list(held.items()))
        except asyncio.CancelledError:
            pass

    async def release(self, owner: str, socket: str) -> None:
        """Stop counting ``socket`` (it closed)."""
        client, _admit, _refresh = self._client()
        joined, seen = self._keys(owner)
        try:
            async with client.pipeline(transaction=True) as pipe:
                await pipe.zrem(joined, socket).zrem(seen, socket).execute()
        except (RedisError, OSError) as e:
            log.warning("ws: socket slot not released for %s: %s", owner, e)

    async def count(self, owner: str) -> int:
        """How many sockets ``owner`` holds now (tests, diagnostics)."""
        client, _admit, _refresh = self._client()
        return await client.zcard(self._keys(owner)[0])


slots = SocketSlots()


class _Gate:
    """A per-person semaphore of one event loop (see ``ParlourConsumer.db``)."""

    def __init__(self, size: int):
        self.semaphore = asyncio.Semaphore(size)


_gates: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def _gate(owner: str) -> _Gate:
    """The gate of ``owner`` in this event loop, kept while a socket holds it."""
    key = (id(asyncio.get_running_loop()), owner)
    gate = _gates.get(key)
    if gate is None:
        gate = _Gate(settings.PARLOUR_WS_DB_CALLS_PER_USER)
        _gates[key] = gate
    return gate


def _retried(fn, *args):
    """``fn(*args)`` through ``core.database.retry_if_connection_lost``."""
    return database.retry_if_connection_lost(lambda: fn(*args))


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
                database_sync_to_async(_retried)(channels_auth.get_user.func, scope), SIGN_IN_SECONDS)
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


#: The direct handlers still waiting (``ParlourConsumer.take``): the loop
#: keeps only weak references to tasks.
_direct_tasks: set[asyncio.Task] = set()


def _start(coro) -> None:
    """Run ``coro`` now, up to its first wait, as a task (asyncio's eager
    tasks); keep it until it ends if it waits."""
    task = asyncio.eager_task_factory(asyncio.get_running_loop(), coro)
    if not task.done():
        _direct_tasks.add(task)
        task.add_done_callback(_direct_tasks.discard)


class ParlourConsumer(AsyncWebsocketConsumer):
    """Base of every Parlour WebSocket consumer (config/routing.py): the groups
    a socket joined, left again on disconnect, the guard every received
    frame passes (``admit``, from ``websocket_receive``), and the one reading
    of a frame (``receive``).

    A received frame is read once, here: it must pass ``admit`` (size and
    message budget, else the socket closes), then be JSON, then a JSON
    object, then name a type (``message_type``) that the consumer has a
    handler for, ``async def on_<type>(self, data)`` (``data`` the parsed
    object). A frame that fails any of these changes nothing and gets
    ``send_error`` with the matching ``*_message`` below; a consumer
    declares its handlers, its ``send_error`` and, where it words them
    differently, those messages. A consumer that reads nothing overrides
    ``receive`` to ignore frames: they have passed ``admit`` by then.

    Raises TypeError when a subclass defines one of ``SEALED``, the methods
    a frame passes before ``receive`` (module docstring, "Limits")."""

    #: Methods no subclass may define: they hold the limits every frame meets.
    SEALED = ("websocket_receive", "dispatch", "admit")

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in ParlourConsumer.SEALED:
            if name in vars(cls):
                raise TypeError(f"{cls.__qualname__} defines {name}, which every socket's frames pass "
                                "through unchanged (accounts/sockets.py, Limits); override receive instead")

    #: What a refused frame is told (``receive``): not JSON; JSON but not
    #: an object; an object of no type this consumer handles.
    not_json_message = "That message is not valid JSON."
    not_object_message = "Messages are JSON objects."
    unknown_message = "Unknown message."

    groups_joined: list[str] | tuple = ()
    #: Group event types whose handlers only send a frame (no database, no
    #: waiting on anything else): the channel layer hands them to ``take``
    #: as they arrive from Redis, not through the socket's queue.
    direct_types: frozenset[str] = frozenset()
    _held: list[dict] | None = None  # direct events waiting for a view (``holding``)
    _receiving = False  # registered with the channel layer (``join``)
    budget: AsyncLimiter | None = None
    refused = False  # closed for a bad frame: frames still in flight are dropped
    owner: str | None = None  # socket_owner(), once the socket holds a slot
    _db_gate: _Gate | None = None
    #: The session this socket signed in with, once it is let in (None:
    #: anonymous, or not let in): its key, its group and its user's id.
    session_key: str | None = None
    session_group: str | None = None
    session_user_id: int | None = None

    async def send(self, text_data=None, bytes_data=None, close=False):
        """Send a frame; one whose client has already gone (it left the page
        while its snapshot was being read) is dropped, not raised: daphne's
        protocol raises ``Disconnected``, which would end the consumer with
        an "Exception inside application" error before its disconnect
        handler runs."""
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            log.debug("ws %s: frame dropped, the client has gone", self.scope.get("path", "?"))

    async def db(self, fn, *args):
        """``fn(*args)`` on Channels' database thread (``database_sync_to_async``),
        at most PARLOUR_WS_DB_CALLS_PER_USER of this person's at once in
        this process (module docstring). Returns what ``fn`` returns. ``fn``
        runs once more on a fresh connection when the database ended its
        connection before a commit (``core.database.retry_if_connection_lost``);
        raises ``core.database.ConnectionLost`` when that did not help, which
        ``dispatch`` turns into an error frame or a close with 4013."""
        if self._db_gate is None:
            self._db_gate = _gate(socket_owner(self.scope))
        async with self._db_gate.semaphore:
            return await database_sync_to_async(_retried)(fn, *args)

    async def take_slot(self) -> None:
        """Count this socket against its person's cap (module docstring),
        closing their oldest sockets beyond it, and keep the count fresh
        while it is open. A signed-in person's socket then joins their user
        group and their session's group, and its session is re-checked
        every PARLOUR_WS_SESSION_CHECK_SECONDS (module docstring,
        "Sessions"). Call once the socket is accepted and allowed in."""
        self.owner = socket_owner(self.scope)
        for channel in await slots.admit(self.owner, self.channel_name):
            log.info("ws: %s over the socket cap: closing its oldest socket", self.owner)
            try:
                await self.channel_layer.send(channel, {"type": EVICTED_EVENT})
            except Exception as e:  # noqa: BLE001 - a lost eviction only leaves one socket over
                log.warning("ws: could not close an evicted socket: %s", e)
        slots.hold(self.owner, self.channel_name)
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

    async def layer_resubscribed(self, event):
        """The channel layer rebuilt this process's Redis subscription after
        Redis failed (core/channel_layer.py, RESUBSCRIBED): group messages
        published meanwhile never arrived, so the socket catches up
        (``resync``)."""
        await self.resync()

    async def resync(self) -> None:
        """Bring the page up to date after group messages were lost. The
        match socket sends a snapshot; the room and queue sockets do nothing
        yet (their pages catch up with their next frame)."""

    async def sockets_evicted(self, event):
        log.info("ws %s: closed with %s (over the socket cap)", self.scope.get("path", "?"),
                 CLOSE_TOO_MANY_SOCKETS)
        await self.close(CLOSE_TOO_MANY_SOCKETS)

    async def dispatch(self, message):
        """Call the message's handler, without channels' per-message hop to
        its database thread to close old connections (AsyncConsumer.dispatch
        makes one for every frame received and every group message). These
        consumers reach the database only through ``database_sync_to_async``,
        which closes old connections in the thread that uses them, before
        and after each call; the extra hop cost every move a thread hand-off."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except database.ConnectionLost as e:
            # The database ended this socket's connection, twice over (README
            # "Decisions"): say so to a socket that asked, else close with
            # 4013 ("try again later"); the page reconnects and catches up.
            log.warning("ws %s: %s while handling %s", self.scope.get("path", "?"), e, message["type"])
            if message["type"] == "websocket.receive" and not self.refused:
                try:
                    await self.send_error(e.message)
                    return
                except database.ConnectionLost:
                    pass
            await self.close(CLOSE_TRY_AGAIN)

    async def websocket_receive(self, message):
        """A frame arrived: ``admit`` it (limits: size and message budget),
        then hand it to ``receive``. Sealed (class docstring)."""
        text_data, bytes_data = message.get("text"), message.get("bytes")
        if not await self.admit(text_data, bytes_data):
            return
        if bytes_data is not None:
            await self.receive(bytes_data=bytes_data)
        else:
            await self.receive(text_data=text_data)

    async def receive(self, text_data=None, bytes_data=None):
        """Read a received frame (admitted) once and hand it to its
        ``on_<type>`` handler, or refuse it with ``send_error`` (class
        docstring)."""
        try:
            data = json.loads(text_data if text_data is not None else bytes_data)
        except (TypeError, ValueError):
            await self.send_error(self.not_json_message)
            return
        if not isinstance(data, dict):
            await self.send_error(self.not_object_message)
            return
        kind = self.message_type(data)
        handler = getattr(self, f"on_{kind}", None) if isinstance(kind, str) else None
        if handler is None:
            await self.send_error(self.unknown_message)
            return
        await handler(data)

    def message_type(self, data: dict):
        """The type a received JSON object names: its ``"type"`` field (any
        JSON value; only a string that names a handler is handled)."""
        return data.get("type")

    async def send_error(self, message: str) -> None:
        """Tell this socket that its frame was refused, in the page's own
        error frame (each consumer renders its own)."""
        raise NotImplementedError

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

    async def join(self, *groups: str) -> None:
        """Add this socket to ``groups`` (left again in ``disconnect``)."""
        if self.direct_types and not self._receiving:
            add_receiver = getattr(self.channel_layer, "add_receiver", None)
            if add_receiver is not None:
                add_receiver(self.channel_name, self)
                self._receiving = True
        self.groups_joined = [*self.groups_joined, *groups]
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)

    def take(self, event: dict) -> bool:
        """The channel layer's offer of a group event as it arrives
        (core.channel_layer ``add_receiver``): one of ``direct_types`` is
        taken, True, and its handler runs at once, up to its first wait, in
        a task of its own (so a frame is written in the order the events
        came, and a client that reads slowly holds up only its own socket);
        or held while the socket reads and sends a view (``holding``).
        Any other type is left to the socket's queue (False). The handlers
        of ``direct_types`` write their frame before their first wait (the
        servers' sends write, then wait for the buffer to drain), so a
        socket's frames go out in the order their events came.

        One read of an event serves all the sockets of a group in this
        process: no per-socket queue, task switch or deserializing."""
        if event["type"] not in self.direct_types:
            return False
        if self._held is not None:
            self._held.append(event)
        else:
            _start(self._handle_direct(event))
        return True

    async def _handle_direct(self, event: dict) -> None:
        try:
            await getattr(self, get_handler_name(event))(event)
        except OSError as e:  # uvicorn's ClientDisconnected: the client went; its disconnect cleans up
            log.debug("ws %s: %s not sent: %r", self.scope.get("path", "?"), event["type"], e)
        except Exception:  # a bug in a handler: logged, and the other sockets still get theirs
            log.exception("ws %s: %s handler failed", self.scope.get("path", "?"), event["type"])

    @contextlib.asynccontextmanager
    async def holding(self):
        """Inside this block, direct group events for this socket wait and
        are handled, in order, after it: for reading and sending a view
        (a snapshot, a panel) that group frames must not overtake. Nests."""
        if self._held is not None:
            yield
            return
        self._held = []
        try:
            yield
        finally:
            try:
                while self._held:
                    await self._handle_direct(self._held.pop(0))
            finally:
                self._held = None

    async def disconnect(self, code):
        if self.session_key is not None:
            socket_sessions.watch.discard(self)
        if self._receiving:
            self.channel_layer.discard_receiver(self.channel_name)
            self._receiving = False
        if self.owner is not None:
            slots.let_go(self.channel_name)
            await slots.release(self.owner, self.channel_name)
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def admit(self, text_data: str | None, bytes_data: bytes | None) -> bool:
        """True when a received frame may be handled. Else the socket closes
        (once) with CLOSE_TOO_LARGE (4009) for a frame over
        ``settings.PARLOUR_WS_MAX_FRAME`` bytes (text counted in UTF-8 bytes,
        not characters) or CLOSE_FLOODING (4008) when its ``message_budget()``
        is spent, and the refusal is logged; frames arriving after that are
        dropped unlogged. An admitted frame takes one message from the budget."""
        if self.refused:
            return False
        if self.budget is None:
            self.budget = message_budget()  # made inside the event loop
        if text_data is not None:
            size = len(text_data.encode("utf-8", "surrogatepass"))
        else:
            size = len(bytes_data or b"")
        code = CLOSE_TOO_LARGE if size > settings.PARLOUR_WS_MAX_FRAME else (
            None if self.budget.has_capacity() else CLOSE_FLOODING)
        if code is not None:
            self.refused = True
            log.warning("ws %s: closed with %s (%s)", self.scope.get("path", "?"), code,
                        "frame too large" if code == CLOSE_TOO_LARGE else "flooding")
            await self.close(code)
            return False
        await self.budget.acquire()  # returns at once: there was capacity
        return True
