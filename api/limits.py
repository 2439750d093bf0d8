"""The API's rate limits, per token and shared by every process through Redis
(docs/api.md "Rate limits"):

- moves: ``MOVE_RATE`` (10 a second), other calls: ``CALL_RATE`` (30 a
  minute; opening a stream is a call), counted by ``core.ratelimits`` (a
  moving window in Redis);
- open streams: one per match and ``STREAMS_PER_TOKEN`` (4) in all, held as
  slots in Redis the way sockets are (``StreamSlots``, built on
  ``core.sockets.caps.SocketSlots``): each process refreshes the slots of
  its open streams every ``PARLOUR_WS_SLOT_SECONDS``, and a slot not
  refreshed for three times that is dropped, so the streams of a process
  that died stop counting instead of blocking the token for good.

Past a limit: ``ApiError`` 429 ``rate_limited`` with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import sync_to_async
from django.conf import settings
from redis import asyncio as aioredis
from redis.exceptions import RedisError

from api.errors import ApiError
from core import ratelimits
from core.sockets import caps

log = logging.getLogger(__name__)

MOVE_RATE = "10/second"
CALL_RATE = "30/minute"
STREAMS_PER_TOKEN = 4
STREAM_SLOT_PREFIX = "parlour-api-streams"


def _refuse(what: str, retry_after: int) -> ApiError:
    return ApiError(429, "rate_limited", f"Too many {what}: wait {retry_after} s.",
                    headers={"Retry-After": str(retry_after)})


def check(rate: str, token_id: int) -> None:
    """Count one request of token ``token_id`` against ``rate``; raises
    ``ApiError`` 429 past it (nothing counted then)."""
    if not ratelimits.hit(rate, "api", rate, token_id):
        raise _refuse("moves" if rate == MOVE_RATE else "requests", ratelimits.retry_after(rate, "api", rate,
                                                                                             token_id))


def check_move(token) -> None:
    check(MOVE_RATE, token.pk)


def check_call(token) -> None:
    check(CALL_RATE, token.pk)


acheck_call = sync_to_async(check_call, thread_sensitive=False)


# KEYS: joined, seen (as caps._ADMIT). ARGV: member ("<what>|<stream>"),
# cap, seconds after which an unrefreshed entry is dropped, "<what>|".
# Returns 0 (opened), 1 (the token holds ``cap`` streams), 2 (it streams
# ``what`` already).
_OPEN = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local stale = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[3]))
for _, member in ipairs(stale) do
  redis.call('ZREM', KEYS[1], member)
  redis.call('ZREM', KEYS[2], member)
end
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
for _, member in ipairs(members) do
  if string.sub(member, 1, #ARGV[4]) == ARGV[4] then return 2 end
end
if #members >= tonumber(ARGV[2]) then return 1 end
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZADD', KEYS[2], now, ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
return 0
"""


class StreamSlots(caps.SocketSlots):
    """Each token's open streams, in Redis (module docstring): the sockets'
    slots (``SocketSlots``: refreshed together per process, released on
    close, dropped when stale) under their own keys, with ``open`` refusing
    rather than evicting. An owner is ``"t:<token id>"``; a member is
    ``"<what>|<stream's channel>"``, ``what`` the match's id or ``events``."""

    @staticmethod
    def keys_of(owner: str) -> list[str]:
        base = f"{STREAM_SLOT_PREFIX}:{owner}"
        return [f"{base}:joined", f"{base}:seen"]

    def _client(self):
        loop = asyncio.get_running_loop()
        entry = self._clients.get(loop)
        if entry is None:
            client = aioredis.Redis.from_url(settings.REDIS_URL, **settings.REDIS_CLIENT_TIMEOUTS)
            entry = (client, client.register_script(_OPEN), client.register_script(caps._REFRESH))
            self._clients[loop] = entry
        return entry

    async def open(self, token_id: int, what: str, stream: str) -> str:
        """Count stream ``stream`` of ``what`` for token ``token_id``, and
        keep it counted (``hold``) until ``close``; returns its member name.
        Raises ``ApiError`` 429 when the token streams ``what`` already or
        holds ``STREAMS_PER_TOKEN`` streams. Redis unreachable: the stream
        is let in uncounted (logged), as sockets are."""
        owner, member = f"t:{token_id}", f"{what}|{stream}"
        _client, script, _refresh = self._client()
        try:
            answer = await script(keys=self.keys_of(owner),
                                  args=[member, STREAMS_PER_TOKEN, self.keep_seconds(), f"{what}|"])
        except (RedisError, OSError) as e:
            log.warning("api: stream slots not checked for token %s: %s", token_id, e)
            answer = 0
        if answer == 2:
            what_streams = "event streams" if what == "events" else "streams of this match"
            raise _refuse(f"{what_streams} for this token (one at a time)", self._wait())
        if answer == 1:
            raise _refuse(f"streams for this token ({STREAMS_PER_TOKEN} at once)", self._wait())
        self.hold(owner, member)
        return member

    @staticmethod
    def _wait() -> int:
        return max(1, int(settings.PARLOUR_WS_SLOT_SECONDS))

    async def close(self, token_id: int, member: str) -> None:
        """Stop counting stream ``member`` of token ``token_id``."""
        self.let_go(member)
        await self.release(f"t:{token_id}", member)


streams = StreamSlots()
