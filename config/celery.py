"""The Celery app: turn deadlines and computer moves (see games/tasks.py);
and a fix to kombu's Redis transport that keeps workers up through a Redis
restart (``_close_despite_dead_brpop``)."""

import functools
import logging
import os
from queue import Empty

import kombu
from celery import Celery, signals
from kombu.transport import redis as kombu_redis

from config import beat_lock

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


class KombuInternalsMoved(RuntimeError):
    """A kombu internal that ``_close_despite_dead_brpop`` relies on is gone
    or changed (after an upgrade); the message names each one."""


# What the patch below relies on: close reads the pending BRPOP reply when
# _in_poll is set; _brpop_read clears _in_poll and re-raises connection
# errors; a channel knows its transport's connection_errors.
_RELIED_ON = {
    "close": {"_in_poll", "_brpop_read"},
    "_brpop_read": {"_in_poll", "connection_errors"},
    "__init__": {"connection_errors"},
}


def internals_problems() -> list[str]:
    """The kombu Redis transport internals the close fix relies on that are
    missing or changed, one line each naming the internal (empty when all
    are as expected)."""
    version = f"(kombu {kombu.__version__})"
    problems = []
    if not hasattr(kombu_redis.Channel, "_in_poll"):
        problems.append(f"kombu.transport.redis.Channel._in_poll is gone {version}")
    for name, names in _RELIED_ON.items():
        func = getattr(kombu_redis.Channel, name, None)
        func = getattr(func, "__wrapped__", func)  # kombu's own close, not the patch
        used = set(getattr(getattr(func, "__code__", None), "co_names", ()))
        if not names <= used:
            problems.append(f"kombu.transport.redis.Channel.{name} no longer uses "
                            f"{sorted(names - used)} {version}")
    return problems


def _close_despite_dead_brpop(close):
    """Wrap kombu's Redis ``Channel.close`` so that a dead connection under a
    pending BRPOP no longer stops the channel from closing.

    Why (README "Decisions", Redis restarts): when Redis goes away, the
    worker's consumer ``collect()``s the broken connection, which closes its
    channels and then detaches the transport; since celery 5.7 it also
    ``close()``s the connection once more. kombu's ``Channel.close`` first
    reads the reply of the BRPOP in flight and only catches ``Empty``: on a
    dead socket that read raises ``ConnectionError``, so the first close stops
    half-way and leaves the channel marked open. The second close then tries
    to restore the unacknowledged messages (every pending countdown task:
    turn deadlines, computer moves) through a transport that no longer has a
    client, and ``_connparams`` fails with ``AttributeError: 'NoneType' object
    has no attribute 'hostname'``, which is not a connection error: the worker
    exits ("Unrecoverable error") instead of reconnecting. The scheme
    (``redis://`` or ``redis+socket://``) plays no part.

    The fix kombu needs: a connection error while reading the pending reply
    means there is no reply to read (``_brpop_read`` has already disconnected
    and cleared ``_in_poll``), so the close goes on. Then the first close
    finishes, the second one finds the channel closed, and the consumer
    reconnects. Harmless once kombu does this itself.
    """

    @functools.wraps(close)
    def patched(self):
        if self._in_poll:
            try:
                self._brpop_read()
            except Empty:
                pass
            except self.connection_errors:
                pass  # the connection died under the BRPOP: nothing left to read
        return close(self)

    patched._parlour_patched = True
    return patched


# kombu is pinned to one minor (pyproject.toml); an upgrade that moves what
# the fix relies on stops every process here, naming the internal, rather
# than leave workers to die at the next Redis restart. The named test is
# tests/test_celery_kombu.py.
if not getattr(kombu_redis.Channel.close, "_parlour_patched", False):
    if _problems := internals_problems():
        raise KombuInternalsMoved(
            "config/celery.py relies on kombu internals that moved: " + "; ".join(_problems))
    kombu_redis.Channel.close = _close_despite_dead_brpop(kombu_redis.Channel.close)

app = Celery("parlour")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.after_setup_logger.connect
def mail_errors_from_workers(logger: logging.Logger, **kwargs) -> None:
    """A worker's root logger, which Celery sets up anew (it drops the
    handlers of settings.LOGGING), mails its ERROR lines to ADMINS too: a
    task that failed (logged by ``celery.app.trace``) reaches someone as a
    request's error does (core.reporting.AdminMailHandler)."""
    from django.conf import settings
    from django.utils.log import RequireDebugFalse

    from core.reporting import AdminMailHandler
    from core.request_ids import RequestIdFilter

    if any(isinstance(handler, AdminMailHandler) for handler in logger.handlers):
        return
    handler = AdminMailHandler()
    handler.setLevel(logging.ERROR)
    handler.addFilter(RequestIdFilter())
    handler.addFilter(RequireDebugFalse())
    handler.setFormatter(logging.Formatter(settings.LOGGING["formatters"]["plain"]["format"]))
    logger.addHandler(handler)


# One beat for the whole site: a second one refuses to start (config/beat_lock.py).
signals.beat_init.connect(beat_lock.on_beat_init)
