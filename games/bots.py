"""Computer players. They call the engine like everyone else and see only
what a human in their seat sees (docs/rules.md "Computer players").

Entry point::

    from games.bots import LEVELS, choose_move
    move = choose_move("ludo", "normal", rules.view(state, seat), seat,
                       rules.legal_moves(state), random.Random(seed))
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

from games.engine import UnknownGameError, available_games
from games.folders import game_module, has_module

LEVELS = ("easy", "normal", "strong")


@functools.cache
def _bot(kind: str) -> Callable:
    """The ``choose`` function of ``kind``'s bot: ``<game folder>.bot.choose``."""
    return game_module(kind, "bot").choose


@functools.cache
def _has_bot(kind: str) -> bool:
    return has_module(kind, "bot")


#: Games that have computer players (a game's folder with a bot.py).
GAMES = tuple(kind for kind in available_games() if _has_bot(kind))


def choose_move(
    kind: str,
    level: str,
    view: dict,
    seat: int,
    legal: list,
    rng: random.Random,
    budget_ms: float | None = None,
    iterations: int | None = None,
):
    """The move a computer player in ``seat`` makes: one element of ``legal``.

    ``view``: ``rules.view(state, seat)``; ``legal``: ``rules.legal_moves(state)``
    (moves or their notation); ``rng``: the bot's own seeded RNG. Budget:
    ``iterations`` (search nodes; repeatable) if given, else ``budget_ms``
    (milliseconds, default 200; the strong level stops searching by then).
    easy and normal ignore the budget. Raises ``UnknownGameError`` for a game
    without bots and ``ValueError`` for an unknown level, an empty ``legal``
    or a view in which ``seat`` is not to move.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
    if not legal:
        raise ValueError("a bot needs at least one legal move")
    if kind not in available_games() or not _has_bot(kind):
        raise UnknownGameError(f"no computer players for game {kind!r}")
    return _bot(kind)(level, view, seat, legal, rng, budget_ms, iterations)
