"""Sockets per person (README "Decisions"): at most
``settings.PARLOUR_WS_PER_USER`` open sockets per signed-in user and
``PARLOUR_WS_PER_ADDRESS`` anonymous ones per client address, counted in
Redis so every server process shares the count (``SocketSlots``). The
newest socket wins: one over the cap closes that person's oldest with
CLOSE_TOO_MANY_SOCKETS (4029). So a socket whose client vanished without
closing (still open as far as the server knows) never blocks a reconnect,
and one person never holds more than the cap.

A consumer takes its slot once it is let in (``SocketConsumer.take_slot``,
core/sockets/consumer.py) and gives it back when it closes.
"""

from __future__ import annotations

import asyncio
import logging
import weakref

from django.conf import settings
from redis import asyncio as aioredis
from redis.exceptions import RedisError

from core import proxy, request_ids

log = logging.getLogger(__name__)


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
    def keys_of(owner: str) -> list[str]:
        """``owner``'s two keys: its sockets' joined and seen times (presence.py reads the seen)."""
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
            evicted = await admit(keys=self.keys_of(owner),
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
            keys = [key for _socket, owner in batch for key in self.keys_of(owner)]
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
        request_ids.detach()  # the process's task, not the first socket's
        try:
            while held:
                await asyncio.sleep(settings.PARLOUR_WS_SLOT_SECONDS)
                await self.refresh(list(held.items()))
        except asyncio.CancelledError:
            pass

    async def release(self, owner: str, socket: str) -> None:
        """Stop counting ``socket`` (it closed)."""
        client, _admit, _refresh = self._client()
        joined, seen = self.keys_of(owner)
        try:
            async with client.pipeline(transaction=True) as pipe:
                await pipe.zrem(joined, socket).zrem(seen, socket).execute()
        except (RedisError, OSError) as e:
            log.warning("ws: socket slot not released for %s: %s", owner, e)

    async def count(self, owner: str) -> int:
        """How many sockets ``owner`` holds now (tests, diagnostics)."""
        client, _admit, _refresh = self._client()
        return await client.zcard(self.keys_of(owner)[0])


slots = SocketSlots()
