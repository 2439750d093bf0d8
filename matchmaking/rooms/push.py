"""The only caller of the channel layer for room lobbies (STYLE habits 4 and 6).

Called after commit. A lobby change is rendered once per audience: the
public frame (seats, status) once for the room's group, and each member's
own controls (the host's: invites, remove, computer seats, start) once for
that member's group (the frames: fragments.py). Chat lines go to the
room's group as they are.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from core.push import send_all
from matchmaking.models import Room, RoomMember
from matchmaking.rooms import fragments

log = logging.getLogger(__name__)

EVENT = "room.frame"  # consumers handle it as ``room_frame``
CHAT_EVENT = "room.chat"  # a chat line with its sender's id ("from"): ``room_chat``
CLOSE_EVENT = "room.closed"  # ``room_closed``: show the frame, then close the socket


def room_group(code: str) -> str:
    """The group every lobby socket of a room joins."""
    return f"room.{code}"


def member_group(code: str, user_id: int) -> str:
    """The group of one member's lobby sockets."""
    return f"room.{code}.user.{user_id}"


def room_updated(code: str, version: int) -> None:
    """Send the lobby frames of ``version`` (after commit); nothing if the
    room has moved on meanwhile (the newer frames are on their way)."""
    room = Room.objects.filter(code=code, version=version).select_related("host", "match").first()
    if room is None:
        return
    ctx = fragments.lobby_context(room)
    messages = [(room_group(code), EVENT, fragments.public_frame(ctx))]
    members = RoomMember.objects.filter(room=room, status=RoomMember.Status.ACTIVE).select_related("user")
    for member in members:
        html = fragments.member_frame(fragments.member_context(ctx, member.user))
        messages.append((member_group(code, member.user_id), EVENT, html))
    async_to_sync(_send_all)(messages)


def member_removed(code: str, user_id: int) -> None:
    """Tell a removed member's sockets why, and close them."""
    html = fragments.removed_frame()
    async_to_sync(_send_all)([(member_group(code, user_id), CLOSE_EVENT, html)])


def member_left(code: str, user_id: int) -> None:
    """Close a member's lobby sockets once they left the room (in another
    tab, or this one on its way out), saying so: from then on the room's
    chat and its next match are not theirs to hear."""
    html = fragments.left_frame()
    async_to_sync(_send_all)([(member_group(code, user_id), CLOSE_EVENT, html)])


async def send_chat(code: str, html: str, sender_id: int) -> None:
    """One chat line (already rendered once) to everyone in the lobby; each
    socket whose user blocked ``sender_id`` drops it (``RoomConsumer.room_chat``)."""
    await get_channel_layer().group_send(room_group(code), {"type": CHAT_EVENT, "html": html,
                                                            "from": sender_id})


async def _send_all(messages: list[tuple[str, str, str]]) -> None:
    """Each (group, event type, html) as a lobby event, through ``core.push.send_all``."""
    await send_all([(group, {"type": event, "html": html}) for group, event, html in messages])
