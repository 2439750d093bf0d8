"""Rate limits shared by every process (daphne, Celery): the ``limits``
library over the project's Redis (README "Decisions").

Used by actions that must hold across processes and restarts: pausing a match
(games.actions), redeeming room invites (matchmaking.rooms), signing up and
asking for password-reset emails, sign-up forms that fail (accounts.views), replays
for visitors without an account (games.views_history). Per-socket limits (WebSocket
flooding, chat) stay in process memory (games.consumers, games.chat).
"""

from __future__ import annotations

import math
import time
from functools import cache

from django.conf import settings
from limits import RateLimitItem, parse
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

KEY_PREFIX = "parlour-limits"


def _storage_uri(redis_url: str) -> str:
    """limits names a unix-socket Redis ``redis+unix://``; redis-py names it ``unix://``."""
    if redis_url.startswith("unix://"):
        return "redis+unix://" + redis_url.removeprefix("unix://")
    return redis_url


@cache
def _limiter() -> MovingWindowRateLimiter:
    storage = storage_from_string(_storage_uri(settings.REDIS_URL), key_prefix=KEY_PREFIX)
    return MovingWindowRateLimiter(storage)


@cache
def _item(rate: str) -> RateLimitItem:
    return parse(rate)


def hit(rate: str, *keys: str, cost: int = 1) -> bool:
    """Count one attempt against ``rate`` (e.g. ``"3/10minute"``) for ``keys``,
    as ``cost`` attempts (an attempt that costs the server more); False when
    they would go past the limit (nothing counted then)."""
    return _limiter().hit(_item(rate), *map(str, keys), cost=cost)


def amount(rate: str) -> int:
    """How many attempts ``rate`` allows in its window (``"600/minute"``: 600)."""
    return _item(rate).amount


def retry_after(rate: str, *keys: str) -> int:
    """Whole seconds until ``rate``'s window for ``keys`` has room again (at
    least 1): an HTTP 429's ``Retry-After``."""
    stats = _limiter().get_window_stats(_item(rate), *map(str, keys))
    return max(1, math.ceil(stats.reset_time - time.time()))


def allows(rate: str, *keys: str) -> bool:
    """Whether one more attempt against ``rate`` for ``keys`` is still within
    it, counting nothing (a look before work whose answer must be limited:
    sign-up's form checks, accounts.views)."""
    return _limiter().test(_item(rate), *map(str, keys))


def reset() -> None:
    """Forget every count (tests only)."""
    _limiter().storage.reset()
