"""The last move's marks on the public board: where it came from, where it went,
what it captured and whether it reached home (static/css/board.css draws them).

Public information only: computed from the match record and the engine, never
from a seat's view, so every viewer (spectators and replays too) sees the same
marks. The move is the last run of board moves one seat made (a Ludo piece
move; a Roundabout turn's dart moves and turns; a Rondo chain's placements),
as each game's ``svg.py`` says (``is_board_move``) and draws (``last_move``;
a game without them has no marks)::

    {"paths": [{"x1", "y1", "x2", "y2",      # viewBox units of the game's board
                "points": "x,y x,y ..."}],  # optional: the way it went (SVG points), drawn instead
     "from": [{"x", "y", "r"}], "to": [{"x", "y", "r"}],
     "capture": [{"x", "y", "r"}], "home": [{"x", "y", "r"}],
     "labels": [{"x", "y", "r", "text"}]}   # optional: small numbered badges (Rondo's chain order)

``KEEP`` (a frame whose change made no board move) tells the page to keep the
marks it shows (static/js/board.js carries them over to the new board).
"""

from __future__ import annotations

import functools
from collections import OrderedDict

from games.engine import EngineError, get_rules
from games.folders import game_module
from games.models import Move

KEEP = "keep"
_CACHE_SIZE = 2048
_cache: OrderedDict = OrderedDict()


@functools.cache
def _svg(kind: str):
    return game_module(kind, "svg")


def _last_run(kind: str, moves) -> tuple[int, int] | None:
    """(start, end) indices into ``moves`` (Move rows or objects with
    ``notation``, ``actor``, ``seat``) of the last run of one seat's board
    moves, end exclusive; None when there is none."""
    is_board = getattr(_svg(kind), "is_board_move", None)
    if is_board is None:  # a game that draws no marks
        return None
    end = None
    for i in range(len(moves) - 1, -1, -1):
        m = moves[i]
        board = m.seat is not None and m.actor != Move.Actor.CHANCE and is_board(m.notation)
        if end is None:
            if board:
                end = i + 1
            continue
        if not board or m.seat != moves[end - 1].seat:
            return i + 1, end
    return (0, end) if end is not None else None


def _draw(kind: str, before, moves, after) -> dict | None:
    try:
        return _svg(kind).last_move(get_rules(kind), before, [m.notation for m in moves], after)
    except EngineError:
        return None


def from_change(kind: str, before, new_moves, after):
    """Marks for a live change: ``before`` is the engine state the change began
    from, ``new_moves`` its Move rows, ``after`` the state it ended in. KEEP when
    the change made no board move (the marks shown stay right)."""
    run = _last_run(kind, new_moves)
    if run is None:
        return KEEP
    rules = get_rules(kind)
    state = before
    try:
        for m in new_moves[: run[0]]:
            state = rules.play(state, m.notation)
    except EngineError:
        return None
    return _draw(kind, state, new_moves[run[0] : run[1]], after)


def at(match, moves, ply: int, after=None) -> dict | None:
    """Marks of the last board move among the first ``ply`` of ``moves``
    (``match``'s Move rows from ply 0, in order), replaying the record from
    ``match.start_state``; ``after``: the state after those plies, if known."""
    moves = list(moves)[: max(ply, 0)]
    run = _last_run(match.kind, moves)
    if run is None:
        return None
    rules = get_rules(match.kind)
    try:
        state = rules.load(match.start_state)
        for m in moves[: run[0]]:
            state = rules.play(state, m.notation)
        if after is None:
            after = state
            for m in moves[run[0] :]:
                after = rules.play(after, m.notation)
    except EngineError:
        return None
    return _draw(match.kind, state, moves[run[0] : run[1]], after)


def of_run(kind: str, moves, state_at, after) -> dict | None:
    """``at`` for a caller that holds the positions: marks of the last board
    move among ``moves`` (a record's first plies, in order), ``state_at(n)``
    the engine state after the first n of them, ``after`` the state after
    them all (a replay step: games.replays)."""
    run = _last_run(kind, moves)
    if run is None:
        return None
    try:
        before = state_at(run[0])
    except EngineError:
        return None
    return _draw(kind, before, moves[run[0] : run[1]], after)


def current(match, state) -> dict | None:
    """Marks for the match as it stands (a page or a snapshot), read from its
    record once per version and kept (an LRU of ``_CACHE_SIZE`` matches)."""
    key = (match.public_id, match.version)
    if key in _cache:
        _cache.move_to_end(key)
        return _cache[key]
    moves = list(Move.objects.filter(match=match).order_by("ply").only("ply", "notation", "actor", "seat"))
    marks = at(match, moves, len(moves), state)
    _cache[key] = marks
    if len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return marks
