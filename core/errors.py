"""The one base of every user-facing refusal.

An action that refuses a request raises a subclass of ``Refused`` before it
changes anything; the consumers, views and forms that called it catch
``Refused`` and show ``message`` to the user. Each app keeps its own
subclasses (``games.actions.ActionError``, ``games.chat.ChatRefused``,
``matchmaking.rooms.common.RoomError``, ``matchmaking.queue.actions.QueueError``,
``moderation.actions.ModerationError``, ``moderation.reports.ReportRefused``),
so callers can still tell one kind of refusal from another. This module
imports nothing; every app may import it (core is the lowest layer).
"""

from __future__ import annotations


class Refused(Exception):
    """A refused request; nothing changed. ``message`` is safe to show the
    user; ``code`` names the kind of refusal for logs ("refused" unless a
    subclass or the caller says otherwise)."""

    code = "refused"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
