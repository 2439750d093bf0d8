"""The only caller of the channel layer for ranked queues (STYLE habits 4 and 6).

Called after commit. Frames are htmx out-of-band elements for the queue panel
(``templates/matchmaking/queue_panel.html``): the number waiting is rendered
once per queue for the queue's group; a player's own numbers (time waited,
window) and the "your match is ready" redirect go to that player's group.
Room lobbies push from ``matchmaking/rooms/push.py``.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from django.template.loader import render_to_string

from core.push import send_all

EVENT = "queue.frame"  # consumers handle it as ``queue_frame``
PANEL = "matchmaking/queue_panel.html#"


def queue_group(kind: str, players: int) -> str:
    """The group of every socket waiting in the (kind, players) queue."""
    return f"queue.{kind}.{players}"


def queue_user_group(user_id: int) -> str:
    """The group of one player's queue sockets."""
    return f"queue.user.{user_id}"


def redirect_frame(public_id: str) -> str:
    return render_to_string(PANEL + "redirect", {"public_id": public_id, "oob": True})


def status_frame(status) -> str:
    return render_to_string(PANEL + "status", {"status": status, "oob": True})


def count_frame(kind: str, players: int, waiting: int) -> str:
    return render_to_string(PANEL + "count", {"waiting": waiting, "oob": True})


def queue_paired(user_ids: list[int], public_id: str) -> None:
    """Send each paired player's browsers to match ``public_id`` (rendered once)."""
    html = redirect_frame(public_id)
    async_to_sync(_send_all)([(queue_user_group(u), html) for u in user_ids])


def queue_statuses(statuses) -> None:
    """The wave's live update: each queue's count once for its group, each
    waiting player's own numbers for their group (``actions.QueueStatus`` list)."""
    messages = []
    counted = set()
    for s in statuses:
        key = (s.entry.kind, s.entry.players)
        if key not in counted:
            counted.add(key)
            messages.append((queue_group(*key), count_frame(*key, s.waiting)))
        messages.append((queue_user_group(s.entry.user_id), status_frame(s)))
    if messages:
        async_to_sync(_send_all)(messages)


async def _send_all(messages: list[tuple[str, str]]) -> None:
    """Each (group, html) as a queue frame, through ``core.push.send_all``."""
    await send_all([(group, {"type": EVENT, "html": html}) for group, html in messages])
