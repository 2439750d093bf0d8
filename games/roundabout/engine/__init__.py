"""Roundabout (docs/rules.md "Roundabout")."""

from .board import COLOUR_NAMES, SEAT_TERRITORIES, SETUPS
from .moves import RoundaboutMove, parse_move
from .rules import RoundaboutRules
from .state import RoundaboutState

#: The game's rules class: the registry builds it (games.engine.register_game).
RULES = RoundaboutRules

__all__ = [
    "RULES",
    "COLOUR_NAMES",
    "SEAT_TERRITORIES",
    "SETUPS",
    "RoundaboutMove",
    "RoundaboutRules",
    "RoundaboutState",
    "parse_move",
]
