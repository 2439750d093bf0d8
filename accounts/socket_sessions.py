"""The session behind each signed-in socket (accounts/sockets.py, "Sessions"):
its group, and the timer that re-checks it.

A socket is signed in once, at its handshake, from the session cookie. What
ends that session afterwards reaches its open sockets by an event:

- log-out sends ``SESSION_ENDED_EVENT`` to ``session_group(key)``, the group
  every signed-in socket of that session joins;
- a password change or reset sends ``PASSWORD_CHANGED_EVENT`` to the user's
  group (``accounts.sockets.user_group``) naming the session groups to spare
  (the session that made the change keeps its sockets), and, because Django
  gives that session a new key (``update_session_auth_hash``), tells its
  sockets the new key (``SESSION_RENEWED_EVENT`` to the old key's group);

and each closes with CLOSE_SIGNED_OUT (4002). An event can be lost (Redis
restarting between the change and the send, or a socket still joining its
groups when it is sent), and some changes send none (a superuser's password
change in the admin, ``manage.py changepassword``, a session that expired):
so, as a backstop, one task per event loop (``SessionWatch``) re-checks the
sessions of all its signed-in sockets every
``settings.PARLOUR_WS_SESSION_CHECK_SECONDS`` (60 s) against the database,
by Django's own rules (``ended_sessions``), and closes those whose session
no longer signs their user in. Nothing is looked up per frame or per socket:
one database call per 500 sessions per period per process.

Group names carry a digest of the session key, never the key itself (a
session key is a password for as long as it lives). The new key of a
renewed session travels once, in the pub/sub message to that session's own
sockets, which Redis does not keep.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import weakref
from collections.abc import Iterable
from importlib import import_module

from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from accounts.close_codes import CLOSE_BANNED, CLOSE_SIGNED_OUT
from core.sockets.loop_tasks import PerLoop

log = logging.getLogger(__name__)

#: Log-out: consumers handle it as ``session_ended`` (close with 4002).
SESSION_ENDED_EVENT = "session.ended"
#: A password change or reset, to the user's group: ``{"spare": [group, ...]}``,
#: the session groups whose sockets stay; consumers handle it as
#: ``session_password_changed``.
PASSWORD_CHANGED_EVENT = "session.password_changed"
#: The session's key changed (a password change keeps its session under a new
#: key): ``{"key": new key}``, to the old key's group; ``session_renewed``.
SESSION_RENEWED_EVENT = "session.renewed"

#: Sessions checked per database call (``SessionWatch``).
CHECK_BATCH = 500
#: Seconds after which a session found ended is checked again before its
#: sockets close (``SessionWatch.sweep``).
RECHECK_SECONDS = 1.0


def session_group(session_key: str) -> str:
    """The group of every signed-in socket of the session ``session_key``:
    ``"session.<32 hex digits>"`` (a digest: the key never leaves the server)."""
    return "session." + hashlib.sha256(session_key.encode()).hexdigest()[:32]


def _session_data(keys: set[str]) -> dict[str, dict]:
    """{key: decoded data} of the sessions among ``keys`` that exist and have
    not expired: one query for a database-backed engine (``db``,
    ``cached_db``), else one load per key."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    model_class = getattr(store, "get_model_class", None)
    if model_class is None:
        found = {}
        for key in keys:
            data = store(key).load()
            if data:
                found[key] = data
        return found
    rows = model_class().objects.filter(session_key__in=keys, expire_date__gt=timezone.now())
    decoder = store()
    return {key: decoder.decode(data) for key, data in rows.values_list("session_key", "session_data")}


def _verdict(data: dict | None, user) -> int | None:
    """None when the session ``data`` still signs ``user`` in (what
    ``django.contrib.auth.get_user`` would find), else the close code."""
    if data is None or user is None:
        return CLOSE_SIGNED_OUT  # logged out, expired, or the user deleted
    if str(data.get(SESSION_KEY)) != user._meta.pk.value_to_string(user):
        return CLOSE_SIGNED_OUT
    if data.get(BACKEND_SESSION_KEY) not in settings.AUTHENTICATION_BACKENDS:
        return CLOSE_SIGNED_OUT
    if not getattr(user, "is_active", True):
        return CLOSE_SIGNED_OUT
    if getattr(user, "is_banned", False):
        return CLOSE_BANNED
    session_hash = data.get(HASH_SESSION_KEY)
    if not session_hash:
        return CLOSE_SIGNED_OUT
    if constant_time_compare(session_hash, user.get_session_auth_hash()):
        return None
    if any(constant_time_compare(session_hash, old) for old in user.get_session_auth_fallback_hash()):
        return None  # signed with a SECRET_KEY_FALLBACKS key: Django still lets it in
    return CLOSE_SIGNED_OUT  # the password changed since


def ended_sessions(signed_in: Iterable[tuple[str, int]]) -> dict[tuple[str, int], int]:
    """Of ``signed_in``'s (session key, user id) pairs, those whose session no
    longer signs that user in, each with the code to close its sockets with:
    CLOSE_BANNED (4003) when the user is banned, else CLOSE_SIGNED_OUT (4002):
    the session is gone (logged out) or expired, names another user or an
    unknown backend, the user is gone or inactive, or the session's password
    hash is not the user's (the password changed or was reset). Pairs still
    signed in are left out. Two queries, whatever the number of pairs."""
    pairs = set(signed_in)
    if not pairs:
        return {}
    sessions = _session_data({key for key, _user_id in pairs})
    users = get_user_model()._default_manager.in_bulk({user_id for _key, user_id in pairs})
    ended = {}
    for key, user_id in pairs:
        code = _verdict(sessions.get(key), users.get(user_id))
        if code is not None:
            ended[(key, user_id)] = code
    return ended


class SessionWatch(PerLoop):
    """The backstop re-check of every signed-in socket of an event loop
    (module docstring). A watched consumer has ``session_key`` (str),
    ``session_user_id`` (int), ``scope`` and ``async end_session(code)``,
    which closes it. One task per loop (``core.sockets.loop_tasks.PerLoop``) wakes
    every PARLOUR_WS_SESSION_CHECK_SECONDS and checks the sessions of the
    sockets watched then (``sweep``), in one database call per CHECK_BATCH
    sessions; it ends when its last socket leaves."""

    async def run(self, members: weakref.WeakSet) -> None:
        try:
            while members:
                await asyncio.sleep(settings.PARLOUR_WS_SESSION_CHECK_SECONDS)
                await self.sweep(members)
        except asyncio.CancelledError:
            pass

    @staticmethod
    async def sweep(members: weakref.WeakSet | set) -> int:
        """Check the sessions of the sockets in ``members`` now; those found
        ended are checked once more RECHECK_SECONDS later, and those still
        ended (and still open) close (``end_session``). The second look
        spares the sockets of a session that a password change renewed just
        then: its key changed before they heard the new one. Returns how
        many closed."""
        found = await SessionWatch.ended(list(members))
        if not found:
            return 0
        await asyncio.sleep(RECHECK_SECONDS)
        closed = 0
        for consumer, code in await SessionWatch.ended([c for c, _code in found if c in members]):
            if consumer not in members:
                continue  # closed meanwhile
            log.info("ws %s: closed with %s (its session ended)", consumer.scope.get("path", "?"), code)
            try:
                await consumer.end_session(code)
            except Exception as e:  # noqa: BLE001 - the client went first: nothing to close
                log.debug("ws %s: not closed: %r", consumer.scope.get("path", "?"), e)
                continue
            closed += 1
        return closed

    @staticmethod
    async def ended(consumers: list) -> list[tuple[object, int]]:
        """(consumer, close code) of each of ``consumers`` whose session
        ended (``ended_sessions``), in one database call per CHECK_BATCH
        sessions. A batch whose check fails (the database away) is logged
        and left out: the next period checks it again."""
        by_pair: dict[tuple[str, int], list] = {}
        for consumer in consumers:
            by_pair.setdefault((consumer.session_key, consumer.session_user_id), []).append(consumer)
        pairs = list(by_pair)
        found = []
        for start in range(0, len(pairs), CHECK_BATCH):
            batch = pairs[start:start + CHECK_BATCH]
            try:
                ended = await database_sync_to_async(ended_sessions)(batch)
            except Exception as e:  # noqa: BLE001 - a backstop: the next period tries again
                log.warning("ws: %d sessions not checked: %s", len(batch), e)
                continue
            for pair, code in ended.items():
                # A socket renewed while its old key was looked up is checked next time.
                found += [(c, code) for c in by_pair[pair] if c.session_key == pair[0]]
        return found


watch = SessionWatch()
