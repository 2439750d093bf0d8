"""The refusal of every arena action."""

from __future__ import annotations

from core.errors import Refused


class ArenaError(Refused):
    """A refused arena action; ``message`` is safe to show. Nothing changed."""
