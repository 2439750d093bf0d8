"""A socket's database calls (``SocketConsumer.db``, core/sockets/consumer.py):
a consumer's calls on Channels' one database thread (access checks,
snapshots) go through a per-person gate of ``PARLOUR_WS_DB_CALLS_PER_USER``
at once in each process, so one person's hundreds of snapshot requests wait
their turn in the event loop, not in the thread's queue ahead of everyone
else's; and each runs once more on a fresh connection when the database
ended its connection (``retried``).
"""

from __future__ import annotations

import asyncio
import weakref

from django.conf import settings

from core import database


class Gate:
    """A per-person semaphore of one event loop (see ``SocketConsumer.db``)."""

    def __init__(self, size: int):
        self.semaphore = asyncio.Semaphore(size)


_gates: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def gate_of(owner: str) -> Gate:
    """The gate of ``owner`` in this event loop, kept while a socket holds it."""
    key = (id(asyncio.get_running_loop()), owner)
    gate = _gates.get(key)
    if gate is None:
        gate = Gate(settings.PARLOUR_WS_DB_CALLS_PER_USER)
        _gates[key] = gate
    return gate


def retried(fn, *args):
    """``fn(*args)`` through ``core.database.retry_if_connection_lost``."""
    return database.retry_if_connection_lost(lambda: fn(*args))
