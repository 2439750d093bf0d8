"""The one Celery beat: a lock in Redis that a second beat will not start without.

Beat sends the periodic tasks (the deadline sweeper, the queue and arena
waves) and is the site's heartbeat (games/uptime.py). Two beats would send
each of them twice: every task is idempotent, so nothing breaks, but every
wave and sweep would cost double, and a copy of the Procfile on a second
machine is an easy way to start a second beat (docs/operations.md, "More
than one machine"). So beat takes a lock as it starts (Celery's
``beat_init`` signal, connected in config/celery.py):

- the lock is the key ``PARLOUR_BEAT_LOCK_KEY`` in the Redis of
  ``REDIS_URL``, set only where absent (redis-py's ``Lock``: ``SET NX`` with
  a time to live of ``PARLOUR_BEAT_LOCK_SECONDS``); its value names the
  holder: host name, boot, process id and since when (``Holder``);
- while beat runs, a thread renews the time to live every quarter of it;
  beat deletes the key as it exits;
- a second beat finds the key taken and exits with status 1 and the message
  "another beat holds the lock since ... on host ... (pid ...)";
- a beat that died without deleting it (killed, its host lost) stops
  renewing it, and the key expires after ``PARLOUR_BEAT_LOCK_SECONDS``:
  then a beat anywhere may take it. On the holder's own host a replacement
  need not wait: when the holder's process is gone (same host, same boot,
  same process namespace, and no live process of that id), the key is
  taken at once, so supervisord's restart of a killed beat just works.

If Redis loses the key while beat runs (a Redis restart comes back empty),
the next renewal takes it again; if another beat has taken it meanwhile,
this beat logs it and stops (SIGTERM to itself, which saves its schedule).
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import signal
import socket
import threading
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

import redis
from redis.exceptions import LockError, LockNotOwnedError, RedisError

log = logging.getLogger(__name__)


class BeatLockHeld(SystemExit):
    """Another beat holds the lock: this one must not run. A ``SystemExit``
    whose message is the reason, so the ``celery beat`` process prints it
    and exits with status 1 (Celery's signal dispatch passes it through)."""


def _read(path: str) -> str:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return ""


@dataclass(frozen=True)
class Holder:
    """Who holds the lock: ``host`` (the host name), ``boot`` (the kernel's
    boot id, empty where unknown), ``pidns`` (the process namespace, empty
    where unknown), ``pid`` and ``since`` (ISO 8601, UTC)."""

    host: str
    boot: str
    pidns: str
    pid: int
    since: str

    @classmethod
    def this_process(cls) -> Holder:
        try:
            pidns = os.readlink("/proc/self/ns/pid")
        except OSError:
            pidns = ""
        return cls(host=socket.gethostname(), boot=_read("/proc/sys/kernel/random/boot_id"), pidns=pidns,
                   pid=os.getpid(), since=datetime.now(UTC).isoformat(timespec="seconds"))

    def token(self) -> str:
        """The lock's value: this holder as JSON."""
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def parse(cls, raw: bytes | str | None) -> Holder | None:
        """The holder a lock value names; None for no value or one that is
        not a holder's (a key written by something else)."""
        if raw is None:
            return None
        try:
            fields = json.loads(raw)
            return cls(**{name: fields[name] for name in cls.__dataclass_fields__})
        except (ValueError, TypeError, KeyError):
            return None

    def describe(self) -> str:
        return f"since {self.since} on host {self.host} (pid {self.pid})"

    def is_gone_seen_from(self, here: Holder) -> bool:
        """Whether this holder's process is known to be gone, seen from the
        process ``here``: only on the same host, boot and process namespace
        can a process id be checked (a zombie counts as gone). Anywhere else:
        False (it may be alive; its lock expires if it is not)."""
        same_place = (self.host, self.boot, self.pidns) == (here.host, here.boot, here.pidns)
        if not same_place or not self.boot or not self.pidns or self.pid == here.pid:
            return False
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False
        stat = _read(f"/proc/{self.pid}/stat")
        return stat.rpartition(")")[2].split()[:1] == ["Z"]


def _seconds_left(client: redis.Redis, key: str) -> float:
    return max(client.pttl(key), 0) / 1000


def _refusal(client: redis.Redis, key: str, raw) -> BeatLockHeld:
    holder = Holder.parse(raw)
    who = f"another beat holds the lock {holder.describe()}" if holder else (
        f"something else holds the beat lock (its value: {raw!r})")
    return BeatLockHeld(
        f"{who}: this beat does not start. "
        f"Run one Celery beat for the whole site (docs/operations.md, \"More than one machine\"). "
        f"If that beat is dead, its lock ({key!r} in Redis) expires within "
        f"{_seconds_left(client, key):.0f} s; start this one again then.")


def _drop_if_still(client: redis.Redis, key: str, raw) -> bool:
    """Delete ``key`` if its value is still ``raw`` (WATCH/MULTI); whether it did."""
    def drop(pipe):
        if pipe.get(key) == raw:
            pipe.multi()
            pipe.delete(key)

    return client.transaction(drop, key) == [1]


class BeatLock:
    """The lock of one beat process (``take`` makes one that holds it)."""

    def __init__(self, client: redis.Redis, key: str, seconds: float, me: Holder):
        self.client, self.key, self.seconds, self.me = client, key, seconds, me
        self.lock = client.lock(key, timeout=seconds, blocking=False, thread_local=False)
        self._stop = threading.Event()

    @classmethod
    def take(cls, client: redis.Redis, key: str, seconds: float, me: Holder | None = None) -> BeatLock:
        """The lock ``key``, taken for ``me`` (default: this process).
        Raises BeatLockHeld naming the holder when another live beat holds
        it; redis-py's RedisError when Redis cannot be reached."""
        self = cls(client, key, seconds, me or Holder.this_process())
        for _ in range(3):
            if self.lock.acquire(token=self.me.token()):
                return self
            raw = client.get(key)
            if raw is None:
                continue  # it expired between the two calls
            holder = Holder.parse(raw)
            if holder is None or not holder.is_gone_seen_from(self.me):
                raise _refusal(client, key, raw)
            if _drop_if_still(client, key, raw):
                log.warning("beat: took over the lock of a beat that is gone, %s", holder.describe())
        raise _refusal(client, key, client.get(key))

    def renew(self) -> bool:
        """Renew the time to live; take the lock again if Redis lost it.
        False when another beat holds it now. Raises RedisError."""
        try:
            self.lock.reacquire()
            return True
        except LockNotOwnedError:
            if self.lock.acquire(token=self.me.token()):
                log.warning("beat: Redis had lost the beat lock (a restart?); taken again")
                return True
            return False

    def keep(self, on_lost) -> threading.Thread:
        """Renew the lock every quarter of its time to live in a daemon
        thread until ``release``; call ``on_lost(holder_description)`` once
        and stop renewing if another beat has taken it."""
        def run():
            while not self._stop.wait(self.seconds / 4):
                try:
                    if not self.renew():
                        holder = Holder.parse(self.client.get(self.key))
                        on_lost(holder.describe() if holder else "(unknown)")
                        return
                except RedisError as e:
                    log.warning("beat: could not renew the beat lock (%s); trying again", e)

        thread = threading.Thread(target=run, name="beat-lock", daemon=True)
        thread.start()
        return thread

    def release(self) -> None:
        """Stop renewing and delete the lock if this beat still holds it."""
        self._stop.set()
        try:
            self.lock.release()
        except (LockError, RedisError):
            pass


def _stop_this_beat(holder: str) -> None:
    log.critical("beat: another beat took the beat lock, %s: this beat stops", holder)
    os.kill(os.getpid(), signal.SIGTERM)  # Celery's handler saves the schedule and exits


def on_beat_init(sender=None, **kwargs) -> None:
    """Celery's ``beat_init`` receiver: take the lock (waiting for Redis
    while it cannot be reached), keep it while beat runs, release it at
    exit. Raises BeatLockHeld when another beat holds it."""
    from django.conf import settings

    client = redis.Redis.from_url(settings.REDIS_URL, **settings.REDIS_CLIENT_TIMEOUTS)
    waited = False
    while True:
        try:
            lock = BeatLock.take(client, settings.PARLOUR_BEAT_LOCK_KEY, settings.PARLOUR_BEAT_LOCK_SECONDS)
            break
        except BeatLockHeld as refused:
            log.critical("beat: %s", refused)
            raise
        except RedisError as e:
            if not waited:
                log.warning("beat: waiting for Redis to take the beat lock (%s)", e)
                waited = True
            time.sleep(1)
    log.info("beat: holds the beat lock %r, %s", lock.key, lock.me.describe())
    atexit.register(lock.release)
    lock.keep(_stop_this_beat)
