"""Which languages a match's sockets read (docs/i18n.md "Live play").

A socket's language is read once, at its handshake
(``accounts.sockets.socket_language``):
a signed-in person's account choice, else what a request of theirs would
get (Django's language cookie, then Accept-Language), else English.

Every socket counts itself, while it is open, in one Redis hash per match
(``joined`` / ``left``: one round trip at connect and one at close), under
*keys*: ``"de"`` (a socket of the match reads German) and, for a seat's
socket, ``"0:de"`` as well (seat 0's controls are wanted in German); an
English socket and an API match stream count ``"en"`` alike. A change renders
only the languages counted (``public_languages``): a match whose sockets all
read German renders no English frame and sends none, so a German match costs
what an English one does. With nothing counted (no socket open, or Redis out
of reach) it renders English, as before languages.

The pusher (games/push.py) reads the hash through ``present``, kept per
process for ``CACHE_SECONDS``, so a move costs no Redis round trip; at most
one small one (HGETALL) per match and process every ``CACHE_SECONDS``.
A socket that joined meanwhile finds its language missing from the English
frame's list of the languages rendered (``"langs"``) and asks for a
snapshot itself (games/consumers.py, ``MatchConsumer.match_frame``): a
language missed never leaves a socket without frames.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import weakref

import redis
from django.conf import settings
from redis import asyncio as aioredis
from redis.exceptions import RedisError

from accounts import languages

log = logging.getLogger(__name__)

#: The site's default language: its sockets count nothing and its frames go
#: to the groups every socket of the match joins (games.push).
DEFAULT = settings.LANGUAGE_CODE
#: How long a process trusts what it read of a match's languages.
CACHE_SECONDS = 2.0
#: How long a match's hash lives after its last socket connected (refreshed
#: at each connect; a process that died without counting its sockets out
#: leaves a language rendered for no one at most this long).
KEEP_SECONDS = 12 * 3600
#: The most matches whose languages a process keeps.
KEPT = 1024


def account_language(user) -> str | None:
    """The language ``user`` chose on their account, None when they chose
    none (then their sockets read what their browser asks for)."""
    return languages.valid(getattr(user, "language", None)) if user is not None else None


def keys_of(language: str, seat_index: int | None) -> list[str]:
    """What one socket counts in its match's hash (module docstring)."""
    return [language] if seat_index is None else [language, f"{seat_index}:{language}"]


def foreign(keys) -> frozenset[str]:
    """The keys of ``keys`` for another language than the default."""
    return frozenset(k for k in keys if k.rpartition(":")[2] != DEFAULT)


def _key(public_id: str) -> str:
    return f"{settings.PARLOUR_WS_SLOT_PREFIX}:langs:{public_id}"


_async_clients: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _async_client():
    loop = asyncio.get_running_loop()
    client = _async_clients.get(loop)
    if client is None:
        client = _async_clients[loop] = aioredis.Redis.from_url(
            settings.REDIS_URL, **settings.REDIS_CLIENT_TIMEOUTS)
    return client


async def _count(public_id: str, keys: list[str], by: int) -> None:
    if not keys:
        return
    try:
        async with _async_client().pipeline(transaction=False) as pipe:
            for k in keys:
                pipe.hincrby(_key(public_id), k, by)
            pipe.expire(_key(public_id), KEEP_SECONDS)
            await pipe.execute()
    except (RedisError, OSError) as e:  # the English frame's "langs" heals a missed language
        log.warning("ws %s: languages not counted: %s", public_id, e)


async def joined(public_id: str, keys: list[str]) -> None:
    """Count one socket's ``keys`` (``keys_of``) in match ``public_id``: one
    Redis round trip; none for an empty list."""
    await _count(public_id, keys, 1)


async def left(public_id: str, keys: list[str]) -> None:
    """Count them out again (the socket closed)."""
    await _count(public_id, keys, -1)


async def read(public_id: str) -> frozenset[str]:
    """The keys counted now in match ``public_id`` (one round trip, fresh:
    for a chat line, which is rare)."""
    try:
        found = await _async_client().hgetall(_key(public_id))
    except (RedisError, OSError) as e:
        log.warning("ws %s: languages not read: %s", public_id, e)
        return frozenset()
    return _alive(found)


def _alive(found: dict) -> frozenset[str]:
    return frozenset((k.decode() if isinstance(k, bytes) else k) for k, n in found.items() if int(n) > 0)


_local = threading.local()
_kept: dict[str, tuple[float, frozenset[str]]] = {}
_kept_lock = threading.Lock()


def _sync_client():
    client = getattr(_local, "client", None)
    if client is None:
        client = _local.client = redis.Redis.from_url(settings.REDIS_URL, **settings.REDIS_CLIENT_TIMEOUTS)
    return client


def counted(public_id: str) -> frozenset[str]:
    """The keys counted in match ``public_id``, as this process read them at
    most ``CACHE_SECONDS`` ago (else read now: one HGETALL). A Redis error
    counts as none (logged): the English frame still goes out, and the
    sockets of the languages missed ask for snapshots."""
    now = time.monotonic()
    kept = _kept.get(public_id)
    if kept is not None and now - kept[0] < CACHE_SECONDS:
        return kept[1]
    try:
        keys = _alive(_sync_client().hgetall(_key(public_id)))
    except (RedisError, OSError) as e:
        log.warning("match %s: languages not read: %s", public_id, e)
        keys = frozenset()
    with _kept_lock:
        _kept[public_id] = (now, keys)
        if len(_kept) > KEPT:
            for stale in [k for k, (t, _) in _kept.items() if now - t >= CACHE_SECONDS] or list(_kept)[:1]:
                _kept.pop(stale, None)
    return keys


def forget() -> None:
    """Forget what this process read (tests and benchmarks start afresh)."""
    with _kept_lock:
        _kept.clear()


def present(public_id: str, seats) -> frozenset[str]:
    """Every key (module docstring) a change of match ``public_id`` renders
    for beside the default: ``counted``, and each human seat's account
    language (known without Redis, from ``seats``' loaded users), so that
    the seats of people who chose a language are never missed."""
    keys = set(counted(public_id))
    for seat in seats:
        if seat.user_id:
            chosen = account_language(seat.user)
            if chosen:
                keys.update(keys_of(chosen, seat.index))
    return frozenset(keys)


def _with_default(languages: set[str]) -> list[str]:
    """``languages`` in order, the default first; the default alone when
    there are none (nothing counted: render as before languages)."""
    if not languages:
        return [DEFAULT]
    others = sorted(languages - {DEFAULT})
    return [DEFAULT, *others] if DEFAULT in languages else others


def public_languages(keys) -> list[str]:
    """The languages of the public frame for ``keys`` (``present``): those
    counted, the default first when it is among them; the default alone
    when none is."""
    return _with_default({k for k in keys if ":" not in k})


def seat_languages(seat, keys) -> list[str]:
    """The languages of seat ``seat``'s controls (a Seat with its user): its
    account's language when the person chose one (all their sockets read
    it), else those its sockets counted (the default when none did)."""
    chosen = account_language(seat.user) if seat.user_id else None
    if chosen:
        return [chosen]
    prefix = f"{seat.index}:"
    return _with_default({k[len(prefix):] for k in keys if k.startswith(prefix)})
