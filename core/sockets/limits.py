"""Limits every received frame meets (README "Decisions"; the consumer's
``admit``, core/sockets/consumer.py): a frame over ``PARLOUR_WS_MAX_FRAME``
bytes closes the socket with 4009, one over the socket's message budget with
4008 (core/sockets/close_codes.py), before any consumer code sees it.
"""

from __future__ import annotations

from aiolimiter import AsyncLimiter
from django.conf import settings
from limits import parse as parse_rate


def message_budget() -> AsyncLimiter:
    """A new per-socket message budget for ``settings.PARLOUR_WS_RATE``
    (e.g. ``"20/5second"``: 20 messages at once, refilled at 20 per 5 s).

    A leaky bucket owned by the consumer (aiolimiter): one socket lives in
    one process, so nothing is shared, and a check touches no storage, no
    thread and no other socket. Create it inside the event loop (in
    ``connect``, or lazily, as ``SocketConsumer.admit`` does)."""
    item = parse_rate(settings.PARLOUR_WS_RATE)
    return AsyncLimiter(item.amount, item.get_expiry())
