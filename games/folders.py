"""The one way shared code reaches a module of a game's folder
(docs/adding-a-game.md, "The folder"): its ``svg``, ``bot``, ``record``,
``site``... Pure Python, like the engine registry it asks (``game_package``,
``module_path``), so the bots and the record may use it without Django.

    from games.folders import game_module
    game_module("ludo", "svg").board_context(view)
    game_module("ludo", "record", optional=True)   # None when the folder has none
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from games.engine.registry import game_package, module_path


def module_name(kind: str, part: str) -> str:
    """The dotted path of module ``part`` of game ``kind``'s folder
    ("games.ludo.svg"); raises ``UnknownGameError`` for an unregistered game."""
    return module_path(game_package(kind), part)


def has_module(kind: str, part: str) -> bool:
    """Whether game ``kind``'s folder has a module ``part``; raises
    ``UnknownGameError`` for an unregistered game."""
    return importlib.util.find_spec(module_name(kind, part)) is not None


def game_module(kind: str, part: str, *, optional: bool = False) -> ModuleType | None:
    """Module ``part`` of game ``kind``'s folder, imported. ``optional``: None
    when the folder has no such module (else ``ModuleNotFoundError``). Raises
    ``UnknownGameError`` for an unregistered game. Not cached: callers on the
    hot path keep what they need (``functools.cache``)."""
    name = module_name(kind, part)
    if optional and importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)
