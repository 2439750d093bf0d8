"""Computer players. They call the engine like everyone else and see only
what a human in their seat sees (docs/rules.md "Computer players").

Entry point::

    from games.bots import LEVELS, choose_move
    move = choose_move("ludo", "normal", rules.view(state, seat), seat,
                       rules.legal_moves(state), random.Random(seed))
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.engine import UnknownGameError

LEVELS = ("easy", "normal", "strong")


def _ludo() -> Callable:
    from . import ludo

    return ludo.choose


def _roundabout() -> Callable:
    from . import roundabout

    return roundabout.choose


def _rondo() -> Callable:
    from . import rondo

    return rondo.choose


_BOTS = {"ludo": _ludo, "rondo": _rondo, "roundabout": _roundabout}
#: Games that have computer players.
GAMES = tuple(_BOTS)


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
    try:
        factory = _BOTS[kind]
    except KeyError:
        raise UnknownGameError(f"no computer players for game {kind!r}") from None
    return factory()(level, view, seat, legal, rng, budget_ms, iterations)
