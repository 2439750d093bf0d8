"""The registry of games: the only way in from outside the engine.

``get_rules("ludo")`` returns the rules object; Roundabout and Rondo register
here when they exist (STYLE.md habit 1, after python-chess ``chess/variant.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Rules, UnknownGameError

_FACTORIES: dict[str, Callable[[], Rules]] = {}
_INSTANCES: dict[str, Rules] = {}


def register(name: str, factory: Callable[[], Rules]) -> None:
    """Make ``get_rules(name)`` return ``factory()`` (built once, on first use)."""
    _FACTORIES[name] = factory
    _INSTANCES.pop(name, None)


def available_games() -> tuple[str, ...]:
    """Names of every registered game, sorted."""
    return tuple(sorted(_FACTORIES))


def get_rules(name: str) -> Rules:
    """The rules object for game ``name``, e.g. ``get_rules("ludo")``.

    Raises ``UnknownGameError`` (a ``ValueError``) for an unregistered name.
    """
    try:
        return _INSTANCES[name]
    except KeyError:
        pass
    try:
        factory = _FACTORIES[name]
    except (KeyError, TypeError):
        known = ", ".join(available_games()) or "none"
        raise UnknownGameError(f"unknown game {name!r}; registered games: {known}") from None
    rules = _INSTANCES[name] = factory()
    return rules
