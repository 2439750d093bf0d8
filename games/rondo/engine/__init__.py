"""Rondo (docs/rules.md "Rondo").

The board is data (``rondo-board.json``, both sides); see ``board.Board``.
"""

from .board import Board, board_data, get_board
from .moves import COLOURS, RondoMove, parse_move
from .rules import SEAT_COLOURS, RondoRules
from .state import TILES_PER_COLOUR, RondoState

#: The game's rules class: the registry builds it (games.engine.register_game).
RULES = RondoRules

__all__ = [
    "RULES",
    "COLOURS",
    "SEAT_COLOURS",
    "TILES_PER_COLOUR",
    "Board",
    "RondoMove",
    "RondoRules",
    "RondoState",
    "board_data",
    "get_board",
    "parse_move",
]
