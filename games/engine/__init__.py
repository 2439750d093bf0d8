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
from .registry import available_games, get_rules, register


def _ludo():
    from .ludo import LudoRules

    return LudoRules()


register("ludo", _ludo)


def _rondo():
    from .rondo import RondoRules

    return RondoRules()


register("rondo", _rondo)


def _roundabout():
    from .roundabout import RoundaboutRules

    return RoundaboutRules()


register("roundabout", _roundabout)

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
    "available_games",
    "get_rules",
    "register",
]
