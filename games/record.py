"""The match record in words, for the move list, announcements and replays.

Each game's folder says how its notation reads (``<game>/record.py``,
``describe(moves, names, roller=, after=)``; see the game's rules page). Only the
public notation is described: a record entry that hides something from some
viewers must be filtered before it reaches here.
"""

from __future__ import annotations

import importlib
import importlib.util

from games.engine import game_package
from games.engine.base import RecordLine

__all__ = ["RecordLine", "describe"]


def describe(kind: str, moves, names: dict[int, str], roller: int | None = None,
             after: dict | None = None) -> list[RecordLine]:
    """Lines for ``moves`` (Move rows or objects with ply, actor, seat,
    notation), in order. ``names`` maps seat index to a display name;
    ``roller`` is the seat that rolled just before ``moves[0]`` if that is a
    die outcome. A seat's roll and its die read as one line. ``after``: the
    public engine view after the last of ``moves``, when known (a Ludo die at
    the end then says whether the turn passed without a move)."""
    module = f"{game_package(kind)}.record"
    if importlib.util.find_spec(module) is None:  # no words for its notation: the notation itself
        return [RecordLine(m.ply, m.seat, m.notation) for m in moves]
    return importlib.import_module(module).describe(moves, names, roller=roller, after=after)
