"""The only caller of the channel layer for ranked queues (STYLE habits 4 and 6).

Called after commit. Frames are htmx out-of-band elements for the queue panel
(``templates/matchmaking/queue_panel.html``): the number waiting is rendered
once per queue for the queue's group; a player's own numbers (time waited,
window) and the "your match is ready" redirect go to that player's group.
Room lobbies push from ``matchmaking/rooms/push.py``.

Each in its reader's language (docs/i18n.md, "Lobby and arenas"): a
player's own frames in theirs (``accounts.languages.of``), a queue's count
once per language among those waiting in it, to the queue's group of that
language (the one each waiting player's socket joins). An English-only
queue renders and sends its count once, as before.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from accounts import languages
from core.push import send_all
from matchmaking.languages import by_language

EVENT = "queue.frame"  # consumers handle it as ``queue_frame``
PANEL = "matchmaking/queue_panel.html#"


def queue_group(kind: str, players: int, language: str = settings.LANGUAGE_CODE) -> str:
    """The group of every socket waiting in the (kind, players) queue whose player reads ``language``."""
    suffix = "" if language == settings.LANGUAGE_CODE else f".{language}"
    return f"queue.{kind}.{players}{suffix}"


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
    """Send each paired player's browsers to match ``public_id`` (rendered
    once per language among them)."""
    messages = []
    for language, users in by_language(user_ids).items():
        with translation.override(language):
            html = redirect_frame(public_id)
        messages += [(queue_user_group(u), html) for u in users]
    async_to_sync(_send_all)(messages)


def queue_statuses(statuses) -> None:
    """The wave's live update: each queue's count once per language for its
    group of that language, each waiting player's own numbers for their group
    (``actions.QueueStatus`` list; each entry's ``user.language`` is read)."""
    messages = []
    counted = set()
    for s in statuses:
        language = languages.of(s.entry.user)
        key = (s.entry.kind, s.entry.players, language)
        with translation.override(language):
            if key not in counted:
                counted.add(key)
                messages.append((queue_group(*key), count_frame(*key[:2], s.waiting)))
            messages.append((queue_user_group(s.entry.user_id), status_frame(s)))
    if messages:
        async_to_sync(_send_all)(messages)


async def _send_all(messages: list[tuple[str, str]]) -> None:
    """Each (group, html) as a queue frame, through ``core.push.send_all``."""
    await send_all([(group, {"type": EVENT, "html": html}) for group, html in messages])
