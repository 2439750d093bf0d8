"""Parlour's rules engine: pure Python, never imports Django.

Reach a game only through the registry::

    from games.engine import CHANCE, get_rules
    rules = get_rules("ludo")

See ``base.Rules`` for the interface every game offers and ``fair`` for the
provably fair chance outcomes (docs/rules.md "Common").
"""

from .base import (
    CHANCE,
    END_REASONS,
    SEAT_STATUSES,
    EngineError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionsError,
    InvalidStateError,
    Outcome,
    Rules,
    UnknownGameError,
)
from .registry import (
    available_games,
    game_package,
    get_rules,
    listed_games,
    register,
    register_game,
    unregister_game,
)

#: The site's games: name -> the package that is the game's one folder (its
#: engine/, bot.py, svg.py, record.py, templates/ and room options; see
#: docs/adding-a-game.md). This is the one list of games: the registry loads
#: each engine from it, config/settings.py installs each package as a Django app
#: (for its templates and static files), and everything else asks the registry.
#: The site lists the games in this order.
GAMES = {
    "ludo": "games.ludo",
    "roundabout": "games.roundabout",
    "rondo": "games.rondo",
}

for _name, _package in GAMES.items():
    register_game(_name, _package)

__all__ = [
    "CHANCE",
    "END_REASONS",
    "SEAT_STATUSES",
    "EngineError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionsError",
    "InvalidStateError",
    "Outcome",
    "Rules",
    "UnknownGameError",
    "GAMES",
    "available_games",
    "game_package",
    "get_rules",
    "listed_games",
    "register",
    "register_game",
    "unregister_game",
]
