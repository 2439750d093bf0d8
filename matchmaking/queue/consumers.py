"""The ranked queue WebSocket, ``/ws/queue/`` (STYLE habit 8): thin and async.

A signed-in player's queue panel opens it while they wait. It joins the
player's group (their numbers, "your match is ready") and their queue's
group (how many wait); it forwards the frames ``push.py`` rendered. While
open it marks the entry seen every PARLOUR_QUEUE_HEARTBEAT_SECONDS (the wave
expires entries whose page vanished); closing it cleanly (leaving the page:
1000, 1001) takes the player out of the queue, while a drop (1006, a server
restart) keeps the entry, away: pairing skips it until a socket is back
(README "Ranked play"). Nothing the client sends is acted on.

Close codes (accounts/close_codes.py): 4001 not signed in; 4002 signed out
and 4003 banned (accounts.sockets; the entry leaves the queue); 4008 too many
messages, 4009 a frame over 4 KB (the entry leaves the queue); 4029 over the
socket cap (accounts.sockets); a normal close when the player is not waiting
(the frame says why).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from channels.db import database_sync_to_async
from django.conf import settings
from django.template.loader import render_to_string

from accounts import languages, sockets
from accounts.close_codes import CLOSE_BANNED, CLOSE_NOT_ALLOWED
from matchmaking.queue import actions, push

log = logging.getLogger(__name__)

#: Close codes that mean the page left (1000 normal, 1001 going away: the page
#: unloading): the entry leaves the queue at once. Any other (1006, the
#: connection lost) keeps it, away (README "Ranked play").
CLEAN_CLOSES = (1000, 1001)


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
        html, entry, was_away = await self.db(_snapshot, self.user)
        if entry is not None and entry.match_id is None:
            self.entry_id = entry.pk
            # The queue's group of this player's language (push.py renders the count in each).
            await self.join(push.queue_user_group(self.user.pk),
                            push.queue_group(entry.kind, entry.players, languages.of(self.user)))
            self.heartbeat = asyncio.create_task(self._beat())
        await self.send(text_data=html)
        if self.entry_id is None:
            await self.close()
        elif was_away:
            # Back after a drop: the entry may be paired again, at once.
            await self.db(actions.pair_queues, [actions.find_queue(entry.kind, entry.players)])

    async def __call__(self, scope, receive, send):
        """The consumer, and when its server process stops (a restart: daphne
        cancels every consumer, so ``disconnect`` may never run) the entry is
        marked away, as after a drop: the player's page reconnects to the
        server that comes back. A process that exits before that, or dies,
        marks nothing; pairing then skips the entry once its heartbeat is
        PARLOUR_QUEUE_PRESENT_SECONDS late (``actions.present``)."""
        try:
            await super().__call__(scope, receive, send)
        except asyncio.CancelledError:
            log.info("queue socket: server stopping (entry %s kept, away)", getattr(self, "entry_id", None))
            if getattr(self, "heartbeat", None) is not None:
                self.heartbeat.cancel()
            if getattr(self, "entry_id", None) is not None:
                await database_sync_to_async(actions.mark_away)(self.user, self.entry_id)
            raise

    async def disconnect(self, code):
        if self.heartbeat is not None:
            self.heartbeat.cancel()
        await super().disconnect(code)
        if self.entry_id is None:
            return
        if code in CLEAN_CLOSES or self.refused:
            # Leaving the page leaves the queue (only this entry: a newer
            # one from another page stays).
            await database_sync_to_async(actions.leave_queue)(self.user, self.entry_id)
        else:
            # A drop (1006: the connection lost; a server going away): the
            # entry waits for a socket to come back, unpaired (README "Ranked play").
            log.info("queue socket of %s dropped (%s): entry kept, away", self.user.pk, code)
            await database_sync_to_async(actions.mark_away)(self.user, self.entry_id)

    async def sockets_evicted(self, event):
        self.refused = True  # over the socket cap: this page's entry leaves with it
        await super().sockets_evicted(event)

    async def end_session(self, code: int) -> None:
        self.refused = True  # logged out (or banned): this page's entry leaves with it
        await super().end_session(code)

    async def receive(self, text_data=None, bytes_data=None):
        """Every frame is ignored: the panel's forms post, and nothing the
        client sends over this socket is read. Each has passed the limits
        first (``admit``: 4008, 4009), as on every socket."""

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
                    await self.db(actions.socket_seen, self.user)
                except Exception as e:  # noqa: BLE001 - the next beat tries again
                    log.warning("queue heartbeat of %s failed: %s", self.user, e)


def _snapshot(user):
    """(frame, entry, was away): the player's current panel numbers, or why
    they are not waiting; whether the entry's socket had dropped. In the
    player's language, as their pushes are."""
    with languages.speaking(user):
        return _snapshot_now(user)


def _snapshot_now(user):
    entry, was_away = actions.socket_seen(user)
    if entry is None:
        return render_to_string(push.PANEL + "gone", {"oob": True}), None, False
    if entry.match_id is not None:
        return push.redirect_frame(entry.match.public_id), entry, False
    status = actions.queue_status(entry)
    return (push.status_frame(status) + push.count_frame(entry.kind, entry.players, status.waiting), entry,
            was_away)
