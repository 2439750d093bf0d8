"""The registry of games: the only way in from outside the engine.

``get_rules("ludo")`` returns the rules object, ``game_package("ludo")`` the
package that is the game's folder (after python-chess ``chess/variant.py``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from .base import Rules, UnknownGameError

_FACTORIES: dict[str, Callable[[], Rules]] = {}
_INSTANCES: dict[str, Rules] = {}
_PACKAGES: dict[str, str] = {}


def register_game(name: str, package: str) -> None:
    """Register the game whose folder is the package ``package`` (a dotted
    path): its rules are ``<package>.engine.RULES()``, imported on first use,
    and the site finds its bot, board drawing and templates there
    (docs/adding-a-game.md)."""
    _PACKAGES[name] = package
    register(name, lambda: importlib.import_module(module_path(package, "engine")).RULES())


def module_path(package: str, part: str) -> str:
    """The dotted path of module ``part`` ("engine", "svg", "bot", "site"...) of
    the game folder ``package``: the one naming of a game's modules."""
    return f"{package}.{part}"


def unregister_game(name: str) -> None:
    """Take game ``name`` off the registry again (a test's game, registered
    for the test only); nothing happens for an unregistered name."""
    _PACKAGES.pop(name, None)
    _FACTORIES.pop(name, None)
    _INSTANCES.pop(name, None)


def game_package(name: str) -> str:
    """The dotted path of game ``name``'s folder; raises ``UnknownGameError``."""
    try:
        return _PACKAGES[name]
    except (KeyError, TypeError):
        known = ", ".join(available_games()) or "none"
        raise UnknownGameError(f"unknown game {name!r}; registered games: {known}") from None


def register(name: str, factory: Callable[[], Rules]) -> None:
    """Make ``get_rules(name)`` return ``factory()`` (built once, on first use)."""
    _FACTORIES[name] = factory
    _INSTANCES.pop(name, None)


def available_games() -> tuple[str, ...]:
    """Names of every registered game, sorted."""
    return tuple(sorted(_FACTORIES))


def listed_games() -> tuple[str, ...]:
    """Names of the games registered with ``register_game``, in the order they
    were registered: the order the site lists them in (``GAMES`` first)."""
    return tuple(_PACKAGES)


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
