"""Each game's place on the site, read from its folder's ``site.py``
(docs/adding-a-game.md): ``SITE``, a ``GameSite``, holds what the shared pages,
forms and admin need to know of a game, so that code outside the game's folder
asks here and never names a game.

    from games import sites
    sites.get_site("ludo").name   # "Ludo"
    sites.choices()               # [("ludo", "Ludo"), ("roundabout", "Roundabout"), ...]
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass

from django.core.exceptions import ValidationError

from games.engine import UnknownGameError, game_package, listed_games


@dataclass(frozen=True)
class GameSite:
    """What the site shows of one game. ``name``: its display name ("Ludo"),
    the only place the site spells it."""

    name: str


@functools.cache
def get_site(kind: str) -> GameSite:
    """The ``SITE`` of game ``kind``'s folder (``<package>.site``), imported
    once per process. Raises ``UnknownGameError`` for an unregistered game."""
    return importlib.import_module(f"{game_package(kind)}.site").SITE


def kinds() -> tuple[str, ...]:
    """The registered games, in the order the site lists them (``games.engine.GAMES``
    first, then any registered later)."""
    return listed_games()


def choices() -> list[tuple[str, str]]:
    """(kind, display name) of every registered game, in the site's order;
    read at call time, so a form built from it offers the games registered now."""
    return [(kind, get_site(kind).name) for kind in listed_games()]


def name(kind: str) -> str:
    """Game ``kind``'s display name; ``kind`` itself for a game not registered
    (a record of a game the site no longer has still shows)."""
    try:
        return get_site(kind).name
    except UnknownGameError:
        return kind


def validate_kind(value: str) -> None:
    """A model or form validator: raises ``ValidationError`` unless ``value``
    names a registered game."""
    if value not in listed_games():
        raise ValidationError("%(value)r is not a game of this site.", code="invalid_choice",
                              params={"value": value})
