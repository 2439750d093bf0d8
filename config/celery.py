"""The Celery app: turn deadlines and computer moves (see games/tasks.py)."""

import functools
import os
from queue import Empty

from celery import Celery
from kombu.transport import redis as kombu_redis

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


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


if not getattr(kombu_redis.Channel.close, "_parlour_patched", False):
    kombu_redis.Channel.close = _close_despite_dead_brpop(kombu_redis.Channel.close)

app = Celery("parlour")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
