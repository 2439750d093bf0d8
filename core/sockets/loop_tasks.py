"""One task per event loop over that loop's sockets, for work every socket of a
process shares (a match socket's heartbeat, games/consumers.py; the session
re-check, accounts/socket_sessions.py) rather than a task per socket.

``PerLoop`` keeps, for each running event loop, a weak set of the consumers
``add``-ed there and one task, ``run(members)``, started with the first and
cancelled when the last is ``discard``-ed (so no task is left pending when a
loop ends). A subclass writes ``run``; it loops while ``members`` is not empty.
"""

from __future__ import annotations

import asyncio
import weakref

from core import request_ids


class PerLoop:
    """The consumers of each event loop and the one task that serves them."""

    def __init__(self):
        self._members: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # loop -> WeakSet
        self._tasks: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # loop -> Task

    def add(self, consumer) -> None:
        loop = asyncio.get_running_loop()
        members = self._members.setdefault(loop, weakref.WeakSet())
        members.add(consumer)
        task = self._tasks.get(loop)
        if task is None or task.done():
            self._tasks[loop] = loop.create_task(self._run_detached(members))

    def discard(self, consumer) -> None:
        loop = asyncio.get_running_loop()
        members = self._members.get(loop)
        if members is None:
            return
        members.discard(consumer)
        if not members:  # no task left pending when the loop ends
            task = self._tasks.pop(loop, None)
            if task is not None:
                task.cancel()

    async def _run_detached(self, members: weakref.WeakSet) -> None:
        # Started by whichever socket came first: its lines are no socket's.
        request_ids.detach()
        await self.run(members)

    async def run(self, members: weakref.WeakSet) -> None:
        """The loop's task: serve ``members`` while any is there."""
        raise NotImplementedError
