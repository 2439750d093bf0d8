"""The match record in words, for the move list, announcements and replays.

Each game's folder says how its notation reads (``<game>/record.py``,
``describe(moves, names, roller=, after=)``; see the game's rules page). Only the
public notation is described: a record entry that hides something from some
viewers must be filtered before it reaches here.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from dataclasses import dataclass

from games import sites
from games.engine import EngineError, game_package, get_rules
from games.engine.base import RecordLine

__all__ = ["Position", "RecordLine", "describe", "hidden_plies", "ply_text", "position_at"]


@dataclass(frozen=True)
class Position:
    """A match as it stood after its first ``ply`` plies (``position_at``).

    ``state``: the engine state (the game's own type). ``error``: why the
    record stopped replaying before ``ply`` (``state`` is then the last
    position it reached), else None. ``left``: the seat indices that had left
    the match by then (the engine's seat status "left")."""

    ply: int
    state: object
    error: str | None
    left: frozenset[int]


def position_at(match, moves, ply: int) -> Position:
    """Replay ``moves`` (``match``'s Move rows from ply 0, in order; objects
    with ``ply`` and ``notation`` will do) from ``match.start_state`` for
    ``ply`` plies, clamped to 0..len(moves). Raises nothing: a record the
    engine refuses stops there, with ``Position.error`` saying where."""
    moves = list(moves)
    ply = min(max(ply, 0), len(moves))
    rules = get_rules(match.kind)
    state = rules.load(match.start_state)
    error = None
    for m in moves[:ply]:
        try:
            state = rules.play(state, m.notation)
        except EngineError as e:
            error = f"The record does not replay at ply {m.ply}: {e}"
            break
    left = frozenset(i for i, status in enumerate(rules.seat_status(state)) if status == "left")
    return Position(ply, state, error, left)


def ply_text(kind: str, move, lines: list[RecordLine], names: dict[int, str]) -> str:
    """What happened at ``move`` (a Move row of a ``kind`` match, or None for
    the start), in words: its line among ``lines`` (``describe``'s, for the
    whole record), else, for the game's chance step that reads with its
    outcome's line (a roll with its die), "<name> rolls.", else its notation
    after the seat's name."""
    if move is None:
        return "The starting position."
    line = next((line for line in lines if line.ply == move.ply), None)
    if line is not None:
        return line.text
    who = names.get(move.seat, "") if move.seat is not None else ""
    step = sites.get_site(kind).chance_step if kind in sites.kinds() else None
    if move.notation == step:
        return f"{who} {step}s."
    return f"{who} {move.notation}".strip()


def describe(kind: str, moves, names: dict[int, str], roller: int | None = None,
             after: dict | None = None) -> list[RecordLine]:
    """Lines for ``moves`` (Move rows or objects with ply, actor, seat,
    notation), in order. ``names`` maps seat index to a display name;
    ``roller`` is the seat that rolled just before ``moves[0]`` if that is a
    die outcome. A seat's roll and its die read as one line. ``after``: the
    public engine view after the last of ``moves``, when known (a Ludo die at
    the end then says whether the turn passed without a move)."""
    module = _record_module(kind)
    if module is None:  # no words for its notation: the notation itself
        return [RecordLine(m.ply, m.seat, m.notation) for m in moves]
    return module.describe(moves, names, roller=roller, after=after)


@functools.cache
def _record_module(kind: str):
    """``<game folder>.record``, or None when the game has none; looked up
    once per process (every pushed frame describes moves)."""
    name = f"{game_package(kind)}.record"
    return importlib.import_module(name) if importlib.util.find_spec(name) is not None else None


def hidden_plies(match, moves) -> dict[int, frozenset]:
    """The plies of ``moves`` (``match``'s Move rows from ply 0, in order)
    whose notation writes down something a spectator may not know yet, each
    with those facts (``Rules.hidden_in_move(state before, move, None)``,
    e.g. Rondo's ``{("tile", 4, "red")}``): ``{ply: facts}``. Empty once the
    match has ended (then the whole record may be shown). Read by replaying
    the record with the engine from ``match.start_state``; if it does not
    replay, every ply from the one that failed counts as hidden (nothing is
    shown that the engine could not vouch for)."""
    if match.is_over:
        return {}
    moves = list(moves)
    rules = get_rules(match.kind)
    out = {}
    done = 0
    try:
        state = rules.load(match.start_state)
        for m in moves:
            facts = rules.hidden_in_move(state, m.notation, None)
            if facts:
                out[m.ply] = facts
            state = rules.play(state, m.notation)
            done += 1
    except (ValueError, TypeError, KeyError):  # EngineError is a ValueError
        out.update({m.ply: frozenset({("unreadable record",)}) for m in moves[done:]})
    return out
