"""Ludo (docs/rules.md "Ludo")."""

from .board import BASE, COLOUR_NAMES, HOME, SAFE_CELLS, SEAT_COLOURS, STAR_CELLS, START_CELLS
from .moves import LudoMove, parse_move
from .rules import LudoRules
from .state import LudoState

#: The game's rules class: the registry builds it (games.engine.register_game).
RULES = LudoRules

__all__ = [
    "RULES",
    "BASE",
    "COLOUR_NAMES",
    "HOME",
    "SAFE_CELLS",
    "SEAT_COLOURS",
    "STAR_CELLS",
    "START_CELLS",
    "LudoMove",
    "LudoRules",
    "LudoState",
    "parse_move",
]
