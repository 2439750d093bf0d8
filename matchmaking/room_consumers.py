"""The room lobby WebSocket, ``/ws/room/<code>/`` (STYLE habit 8).

Only the room's active members may connect (the code alone is not enough).
Server -> client: htmx out-of-band frames rendered once per audience by
room_push (seats and status for everyone; each member's own controls).
Client -> server: ``{"type": "chat", "id": "<preset id>"}`` (games.chat; any
other payload is refused) or ``{"type": "sync"}``. Lobby changes themselves
are plain form posts (views_rooms.py).

Close codes as the match socket: 4004 no such room, or not a member (one
answer for both, as the lobby page's 404: a code cannot be probed), 4001
the room closed or the member was removed while connected, 4003 banned
(accounts.sockets), 4008 too many messages, 4009 frame too large, 4029 over
the socket cap (accounts.sockets).
"""

from __future__ import annotations

import json
import logging

from django.template.loader import render_to_string

from accounts import sockets
from accounts.sockets import CLOSE_NOT_ALLOWED, CLOSE_NOT_FOUND
from games import chat
from games.errors import Refused
from matchmaking import lobby, room_push, rooms
from matchmaking.models import Room

log = logging.getLogger(__name__)


class RoomConsumer(sockets.ParlourConsumer):
    async def connect(self):
        self.code = str(self.scope["url_route"]["kwargs"]["code"]).upper()[:8]
        self.user = self.scope.get("user")
        await self.accept()
        if not await self.db(_access, self.code, self.user):
            await self.close(CLOSE_NOT_FOUND)
            return
        if getattr(self.user, "is_banned", False):
            await self.close(sockets.CLOSE_BANNED)
            return
        await self.take_slot()
        await self.join(room_push.room_group(self.code), room_push.member_group(self.code, self.user.pk),
                        sockets.user_group(self.user.pk))
        await self.send_snapshot()

    async def receive(self, text_data=None, bytes_data=None):
        if not await self.admit(text_data, bytes_data):
            return
        raw = text_data if text_data is not None else bytes_data
        try:
            data = json.loads(raw)
        except (TypeError, ValueError):
            data = None
        kind = data.get("type") if isinstance(data, dict) else None
        if kind == "sync":
            await self.send_snapshot()
        elif kind == "chat":
            try:
                await chat.check_chat(self.user, data.get("id"))
            except Refused as e:
                await self.send_error(e.message)
                return
            await room_push.send_chat(self.code, chat.chat_line(self.user.username, data["id"]))
        else:
            await self.send_error("Unknown message.")

    async def room_frame(self, event):
        await self.send(text_data=event["html"])

    async def user_banned(self, event):
        await self.close(sockets.CLOSE_BANNED)

    async def room_closed(self, event):
        await self.send(text_data=event["html"])
        await self.close(CLOSE_NOT_ALLOWED)

    async def send_error(self, message: str) -> None:
        await self.send(text_data=render_to_string("matchmaking/room_parts.html#error_frame",
                                                   {"message": message}))

    async def send_snapshot(self) -> None:
        html = await self.db(_snapshot, self.code, self.user)
        if html:
            await self.send(text_data=html)


def _access(code: str, user) -> bool:
    """Whether room ``code`` exists and ``user`` is an active member of it."""
    return rooms.is_member_of(code, user)


def _snapshot(code: str, user) -> str:
    room = Room.objects.filter(code=code).select_related("host", "match").first()
    if room is None or not rooms.is_member(room, user):
        return ""
    ctx = lobby.lobby_context(room)
    mine = lobby.member_context(ctx, user)
    return (render_to_string("matchmaking/room_parts.html#public_frame", ctx)
            + render_to_string("matchmaking/room_parts.html#member_frame", mine))
