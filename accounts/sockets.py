"""Each signed-in user's own channel-layer group (issue 9).

Every WebSocket consumer of a signed-in user (match, queue, room) joins
``user_group(user.pk)`` besides its own groups, so something that concerns
the person rather than one page reaches all their sockets at once: a ban
sends ``{"type": "user.banned"}`` there and each consumer closes with
CLOSE_BANNED (4003), which the pages explain and do not reconnect after.
"""

from __future__ import annotations

import logging

from aiolimiter import AsyncLimiter
from asgiref.sync import async_to_sync
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from limits import parse as parse_rate

log = logging.getLogger(__name__)

#: WebSocket close code for a banned user (static/js/match.js explains it).
CLOSE_BANNED = 4003
#: The event a ban sends; consumers handle it as ``user_banned``.
BANNED_EVENT = "user.banned"
#: The other refusal codes every consumer (match, room, queue) uses; the pages
#: explain them and do not reconnect (static/js/match.js, README "Decisions").
CLOSE_NOT_ALLOWED = 4001
CLOSE_NOT_FOUND = 4004
CLOSE_FLOODING = 4008
CLOSE_TOO_LARGE = 4009


def user_group(user_id: int) -> str:
    """The group every socket of user ``user_id`` joins."""
    return f"user.{int(user_id)}"


def close_user_sockets(user_id: int) -> None:
    """Tell every open socket of ``user_id`` to close with CLOSE_BANNED.
    Call after commit (the ban must be visible to a socket that reconnects)."""
    async_to_sync(get_channel_layer().group_send)(user_group(user_id), {"type": BANNED_EVENT})


def message_budget() -> AsyncLimiter:
    """A new per-socket message budget for ``settings.PARLOUR_WS_RATE``
    (e.g. ``"20/5second"``: 20 messages at once, refilled at 20 per 5 s).

    A leaky bucket owned by the consumer (aiolimiter): one socket lives in
    one process, so nothing is shared, and a check touches no storage, no
    thread and no other socket. Create it inside the event loop (in
    ``connect``, or lazily, as ``ParlourConsumer.admit`` does)."""
    item = parse_rate(settings.PARLOUR_WS_RATE)
    return AsyncLimiter(item.amount, item.get_expiry())



class ParlourConsumer(AsyncWebsocketConsumer):
    """Base of Parlour's WebSocket consumers (match, room, queue): the groups
    a socket joined, left again on disconnect, and the guard every received
    frame passes (``admit``)."""

    groups_joined: list[str] | tuple = ()
    budget: AsyncLimiter | None = None
    refused = False  # closed for a bad frame: frames still in flight are dropped

    async def dispatch(self, message):
        """Call the message's handler, without channels' per-message hop to
        its database thread to close old connections (AsyncConsumer.dispatch
        makes one for every frame received and every group message). These
        consumers reach the database only through ``database_sync_to_async``,
        which closes old connections in the thread that uses them, before
        and after each call; the extra hop cost every move a thread hand-off."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def join(self, *groups: str) -> None:
        """Add this socket to ``groups`` (left again in ``disconnect``)."""
        self.groups_joined = [*self.groups_joined, *groups]
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)

    async def disconnect(self, code):
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def admit(self, text_data: str | None, bytes_data: bytes | None) -> bool:
        """True when a received frame may be handled. Else the socket closes
        (once) with CLOSE_TOO_LARGE (4009) for a frame over
        ``settings.PARLOUR_WS_MAX_FRAME`` bytes (text counted in UTF-8 bytes,
        not characters) or CLOSE_FLOODING (4008) when its ``message_budget()``
        is spent, and the refusal is logged; frames arriving after that are
        dropped unlogged. An admitted frame takes one message from the budget."""
        if self.refused:
            return False
        if self.budget is None:
            self.budget = message_budget()  # made inside the event loop
        if text_data is not None:
            size = len(text_data.encode("utf-8", "surrogatepass"))
        else:
            size = len(bytes_data or b"")
        code = CLOSE_TOO_LARGE if size > settings.PARLOUR_WS_MAX_FRAME else (
            None if self.budget.has_capacity() else CLOSE_FLOODING)
        if code is not None:
            self.refused = True
            log.warning("ws %s: closed with %s (%s)", self.scope.get("path", "?"), code,
                        "frame too large" if code == CLOSE_TOO_LARGE else "flooding")
            await self.close(code)
            return False
        await self.budget.acquire()  # returns at once: there was capacity
        return True
