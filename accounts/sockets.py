"""Each signed-in user's own channel-layer group (issue 9).

Every WebSocket consumer of a signed-in user (match, queue, room) joins
``user_group(user.pk)`` besides its own groups, so something that concerns
the person rather than one page reaches all their sockets at once: a ban
sends ``{"type": "user.banned"}`` there and each consumer closes with
CLOSE_BANNED (4003), which the pages explain and do not reconnect after.
"""

from __future__ import annotations

from aiolimiter import AsyncLimiter
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from limits import parse as parse_rate

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
    ``connect``). A consumer closes with its flooding code when
    ``has_capacity()`` is False, else takes a message with ``acquire()``,
    which then returns at once."""
    item = parse_rate(settings.PARLOUR_WS_RATE)
    return AsyncLimiter(item.amount, item.get_expiry())


async def refusal(text_data: str | None, bytes_data: bytes | None, budget: AsyncLimiter) -> int | None:
    """The close code for a received frame that must not be handled, else None.

    CLOSE_TOO_LARGE (4009) for a frame over ``settings.PARLOUR_WS_MAX_FRAME``
    bytes (text counted in UTF-8 bytes, not characters), CLOSE_FLOODING
    (4008) when ``budget`` (``message_budget()``) is spent. An accepted frame
    takes one message from the budget (at once: there was capacity)."""
    if text_data is not None:
        size = len(text_data.encode("utf-8", "surrogatepass"))
    else:
        size = len(bytes_data or b"")
    if size > settings.PARLOUR_WS_MAX_FRAME:
        return CLOSE_TOO_LARGE
    if not budget.has_capacity():
        return CLOSE_FLOODING
    await budget.acquire()
    return None
