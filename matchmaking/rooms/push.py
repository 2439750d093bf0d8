"""The only caller of the channel layer for room lobbies (STYLE habits 4 and 6).

Called after commit. A lobby change is rendered once per audience: the
public frame (seats, status) once for the room's group, and each member's
own controls (the host's: invites, remove, computer seats, start) once for
that member's group (the frames: fragments.py). Chat lines go to the
room's group as they are.

Each in its reader's language (docs/i18n.md, "Lobby and arenas"): a
member's own frames in theirs (``accounts.languages.of``), the public frame
and chat lines once per language among the room's members, each to the
room's group of that language (the one each member's socket joins); an
English-only room renders and sends them once, as before.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from django.conf import settings
from django.utils import translation

from accounts import languages
from core.push import send_all
from matchmaking.models import Room, RoomMember
from matchmaking.rooms import fragments

log = logging.getLogger(__name__)

EVENT = "room.frame"  # consumers handle it as ``room_frame``
CHAT_EVENT = "room.chat"  # a chat line with its sender's id ("from"): ``room_chat``
CLOSE_EVENT = "room.closed"  # ``room_closed``: show the frame, then close the socket


def room_group(code: str, language: str = settings.LANGUAGE_CODE) -> str:
    """The group every lobby socket of a room whose member reads ``language`` joins."""
    return f"room.{code}" if language == settings.LANGUAGE_CODE else f"room.{code}.lang.{language}"


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
    members = list(RoomMember.objects.filter(room=room, status=RoomMember.Status.ACTIVE)
                   .select_related("user"))
    messages = []
    for language in sorted({languages.of(m.user) for m in members} or {settings.LANGUAGE_CODE}):
        with translation.override(language):
            messages.append((room_group(code, language), EVENT, fragments.public_frame(ctx)))
    for member in members:
        with languages.speaking(member.user):
            html = fragments.member_frame(fragments.member_context(ctx, member.user))
        messages.append((member_group(code, member.user_id), EVENT, html))
    async_to_sync(_send_all)(messages)


def member_removed(code: str, user_id: int) -> None:
    """Tell a removed member's sockets why, and close them."""
    with translation.override(_language_of(user_id)):
        html = fragments.removed_frame()
    async_to_sync(_send_all)([(member_group(code, user_id), CLOSE_EVENT, html)])


def member_left(code: str, user_id: int) -> None:
    """Close a member's lobby sockets once they left the room (in another
    tab, or this one on its way out), saying so: from then on the room's
    chat and its next match are not theirs to hear."""
    with translation.override(_language_of(user_id)):
        html = fragments.left_frame()
    async_to_sync(_send_all)([(member_group(code, user_id), CLOSE_EVENT, html)])


def chat_messages(code: str, lines: dict[str, str], sender_id: int) -> list[tuple[str, dict]]:
    """The group messages of one chat line, ``lines``: language -> the line
    rendered in it (``chat_languages``), each to the room's group of that language."""
    return [(room_group(code, language), {"type": CHAT_EVENT, "html": html, "from": sender_id})
            for language, html in lines.items()]


def chat_languages(code: str) -> list[str]:
    """The languages among room ``code``'s active members (one query): a chat
    line is rendered once in each."""
    users = RoomMember.objects.filter(room__code=code, status=RoomMember.Status.ACTIVE)
    codes = users.values_list("user__language", flat=True)
    return sorted({languages.valid(c) or settings.LANGUAGE_CODE for c in codes} or {settings.LANGUAGE_CODE})


async def send_chat(code: str, lines: dict[str, str], sender_id: int) -> None:
    """One chat line (rendered once per language: ``chat_languages``) to
    everyone in the lobby; each socket whose user blocked ``sender_id`` drops
    it (``RoomConsumer.room_chat``)."""
    await send_all(chat_messages(code, lines, sender_id))


def _language_of(user_id: int) -> str:
    from accounts.models import User

    return languages.valid(User.objects.filter(pk=user_id).values_list("language", flat=True).first()) \
        or settings.LANGUAGE_CODE


async def _send_all(messages: list[tuple[str, str, str]]) -> None:
    """Each (group, event type, html) as a lobby event, through ``core.push.send_all``."""
    await send_all([(group, {"type": event, "html": html}) for group, event, html in messages])
