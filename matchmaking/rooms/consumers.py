"""The room lobby WebSocket, ``/ws/room/<code>/`` (STYLE habit 8).

Only the room's active members may connect (the code alone is not enough).
Server -> client: htmx out-of-band frames rendered once per audience by
push.py (seats and status for everyone; each member's own controls), from
fragments.py, as this socket's snapshot is.
Client -> server: ``{"type": "chat", "id": "<preset id>"}`` (games.chat; any
other payload is refused) or ``{"type": "sync"}``. Lobby changes themselves
are plain form posts (views.py).

Close codes (accounts/close_codes.py) as the match socket: 4004 no such room, or not a member (one
answer for both, as the lobby page's 404: a code cannot be probed), 4001
the room closed or the member left or was removed while connected, 4002
signed out (accounts.sockets, "Sessions"), 4003 banned
(accounts.sockets), 4008 too many messages, 4009 frame too large, 4029 over
the socket cap (accounts.sockets).
"""

from __future__ import annotations

import logging

from django.utils import translation
from django.utils.translation import gettext_lazy

from accounts import blocks, languages, sockets
from accounts.close_codes import CLOSE_BANNED, CLOSE_NOT_ALLOWED, CLOSE_NOT_FOUND
from games import chat
from matchmaking.models import Room
from matchmaking.rooms import actions, fragments, push

log = logging.getLogger(__name__)


class RoomConsumer(sockets.ParlourConsumer):
    hides_chat = True

    async def connect(self):
        self.code = str(self.scope["url_route"]["kwargs"]["code"]).upper()[:8]
        self.user = self.scope.get("user")
        await self.accept()
        allowed, self.hidden = await self.db(_access, self.code, self.user)
        if not allowed:
            await self.close(CLOSE_NOT_FOUND)
            return
        if getattr(self.user, "is_banned", False):
            await self.close(CLOSE_BANNED)
            return
        await self.take_slot()
        # The room's group of this member's language (push.py renders the public frame in each).
        await self.join(push.room_group(self.code, languages.of(self.user)),
                        push.member_group(self.code, self.user.pk))
        # Read after joining: a leave committed before it closes the socket here,
        # one committed after it by its event (push.member_left).
        await self.send_snapshot()

    # One refusal for every frame the lobby does not take.
    not_json_message = not_object_message = gettext_lazy("Unknown message.")

    async def on_sync(self, data):
        await self.send_snapshot()

    async def on_chat(self, data):
        try:
            await chat.check_chat(self.user, data.get("id"))
        except chat.ChatRefused as e:
            await self.send_error(e.message)
            return
        lines = await self.db(_chat_lines, self.code, self.user.username, data["id"])
        await push.send_chat(self.code, lines, self.user.pk)

    async def room_frame(self, event):
        await self.send(text_data=event["html"])

    async def room_chat(self, event):
        """A chat line: shown unless its sender is one this member blocked (``hides``)."""
        if not self.hides(event):
            await self.send(text_data=event["html"])

    async def room_closed(self, event):
        await self.send(text_data=event["html"])
        await self.close(CLOSE_NOT_ALLOWED)

    async def send_error(self, message: str) -> None:
        await self.send(text_data=fragments.error_frame(message))

    async def send_snapshot(self) -> None:
        """The lobby as this member sees it now; closed with 4001 when they are
        no longer in it (they left or were removed, or the room is gone)."""
        html = await self.db(_snapshot, self.code, self.user)
        if html:
            await self.send(text_data=html)
        else:
            await self.close(CLOSE_NOT_ALLOWED)


def _access(code: str, user) -> tuple[bool, frozenset[int]]:
    """Whether room ``code`` exists and ``user`` is an active member of it,
    and (for a member) the players whose chat their socket hides: their
    blocks (``accounts.blocks.blocked_ids``, one query)."""
    if not actions.is_member_of(code, user):
        return False, frozenset()
    return True, blocks.blocked_ids(user.pk)


def _chat_lines(code: str, name: str, message_id: str) -> dict[str, str]:
    """The chat line, rendered once per language among the room's members."""
    lines = {}
    for language in push.chat_languages(code):
        with translation.override(language):
            lines[language] = chat.chat_line(name, message_id)
    return lines


def _snapshot(code: str, user) -> str:
    """The lobby as ``user`` sees it now: the public frame and their own (HTML);
    "" when the room is gone or they are no longer in it."""
    room = Room.objects.filter(code=code).select_related("host", "match").first()
    if room is None or not actions.is_member(room, user):
        return ""
    with languages.speaking(user):  # the language of the room's group it joined
        ctx = fragments.lobby_context(room)
        mine = fragments.member_context(ctx, user)
        return fragments.public_frame(ctx) + fragments.member_frame(mine)
