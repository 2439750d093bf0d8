"""Who is online now, read from the socket slots (``core.sockets.caps``):
a signed-in person with at least one socket (any page of the site: the user
socket every page opens, a match, a lobby) refreshed within the slots' keep
time (three times PARLOUR_WS_SLOT_SECONDS) is online.

Nothing is added per socket: the slots are counted and refreshed already
(one entry per socket, refreshed by its process every
PARLOUR_WS_SLOT_SECONDS, dropped when it closes). Asking costs one Redis
round trip for any number of people (one ZCOUNT each, in one script call).
A socket whose process died stops counting after the keep time, as for the
cap. A Redis error answers "nobody is online" (logged): presence is a hint,
never a reason for a page to fail.
"""

from __future__ import annotations

import logging
from functools import cache

import redis
from django.conf import settings

from core.sockets.caps import SocketSlots

log = logging.getLogger(__name__)

# KEYS: each person's "seen" key. ARGV: seconds kept. Returns, per key, how
# many of its sockets were seen within that time (Redis's own clock, as the
# slots are written with it).
_ONLINE = """
local t = redis.call('TIME')
local since = tonumber(t[1]) + tonumber(t[2]) / 1000000 - tonumber(ARGV[1])
local counts = {}
for i, key in ipairs(KEYS) do
  counts[i] = redis.call('ZCOUNT', key, since, '+inf')
end
return counts
"""


@cache
def _script():
    client = redis.Redis.from_url(settings.REDIS_URL, **settings.REDIS_CLIENT_TIMEOUTS)
    return client.register_script(_ONLINE)


def online(user_ids) -> set[int]:
    """The ones of ``user_ids`` with a socket open now (see the module)."""
    ids = list(dict.fromkeys(user_ids))
    if not ids:
        return set()
    keys = [SocketSlots.keys_of(f"u:{pk}")[1] for pk in ids]
    try:
        counts = _script()(keys=keys, args=[SocketSlots.keep_seconds()])
    except (redis.RedisError, OSError) as e:
        log.warning("presence: not read for %d people: %s", len(ids), e)
        return set()
    return {pk for pk, n in zip(ids, counts, strict=True) if n}
