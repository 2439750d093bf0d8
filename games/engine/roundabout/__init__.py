"""Roundabout (docs/rules.md "Roundabout")."""

from .board import COLOUR_NAMES, SEAT_TERRITORIES, SETUPS
from .moves import RoundaboutMove, parse_move
from .rules import RoundaboutRules
from .state import RoundaboutState

__all__ = [
    "COLOUR_NAMES",
    "SEAT_TERRITORIES",
    "SETUPS",
    "RoundaboutMove",
    "RoundaboutRules",
    "RoundaboutState",
    "parse_move",
]
