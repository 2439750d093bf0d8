"""The ranked queue WebSocket, ``/ws/queue/`` (STYLE habit 8): thin and async.

A signed-in player's queue panel opens it while they wait. It joins the
player's group (their numbers, "your match is ready") and their queue's
group (how many wait); it forwards the frames ``push.py`` rendered. While
open it marks the entry seen every PARLOUR_QUEUE_HEARTBEAT_SECONDS (the wave
expires entries whose page vanished); closing it (leaving the page) takes
the player out of the queue. Nothing the client sends is acted on.

Close codes (accounts/close_codes.py): 4001 not signed in; 4003 banned
(accounts.sockets); 4029 over the socket cap (accounts.sockets); a normal
close when the player is not waiting (the frame says why).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from channels.db import database_sync_to_async
from django.conf import settings
from django.template.loader import render_to_string

from accounts import sockets
from accounts.close_codes import CLOSE_BANNED, CLOSE_NOT_ALLOWED
from matchmaking import actions, push

log = logging.getLogger(__name__)


class QueueConsumer(sockets.ParlourConsumer):
    async def connect(self):
        self.user = self.scope.get("user")
        self.entry_id = None
        self.heartbeat = None
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            await self.close(CLOSE_NOT_ALLOWED)
            return
        if getattr(self.user, "is_banned", False):
            await self.close(CLOSE_BANNED)
            return
        await self.take_slot()
        html, entry = await self.db(_snapshot, self.user)
        if entry is not None and entry.match_id is None:
            self.entry_id = entry.pk
            await self.join(push.queue_user_group(self.user.pk), push.queue_group(entry.kind, entry.players),
                            sockets.user_group(self.user.pk))
            self.heartbeat = asyncio.create_task(self._beat())
        await self.send(text_data=html)
        if self.entry_id is None:
            await self.close()

    async def disconnect(self, code):
        if self.heartbeat is not None:
            self.heartbeat.cancel()
        await super().disconnect(code)
        if self.entry_id is not None:
            # Leaving the page leaves the queue (only this entry: a newer
            # one from another page stays).
            await database_sync_to_async(actions.leave_queue)(self.user, self.entry_id)

    async def receive(self, text_data=None, bytes_data=None):
        """Every frame is ignored: the panel's forms post, and nothing the
        client sends over this socket is read (not even counted)."""

    async def queue_frame(self, event):
        await self.send(text_data=event["html"])

    async def _beat(self):
        """Mark the entry seen every PARLOUR_QUEUE_HEARTBEAT_SECONDS while the
        socket is open. A beat that fails (the database away: ``self.db``
        retries once on a fresh connection first) is logged and the next one
        tries again: the entry must not lapse while its socket is open."""
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                await asyncio.sleep(settings.PARLOUR_QUEUE_HEARTBEAT_SECONDS)
                try:
                    await self.db(actions.mark_seen, self.user)
                except Exception as e:  # noqa: BLE001 - the next beat tries again
                    log.warning("queue heartbeat of %s failed: %s", self.user, e)


def _snapshot(user):
    """(frame, entry): the player's current panel numbers, or why they are not waiting."""
    entry = actions.mark_seen(user)
    if entry is None:
        return render_to_string(push.PANEL + "gone", {}), None
    if entry.match_id is not None:
        return push.redirect_frame(entry.match.public_id), entry
    status = actions.queue_status(entry)
    return push.status_frame(status) + push.count_frame(entry.kind, entry.players, status.waiting), entry
