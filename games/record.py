"""The match record in words, for the move list, announcements and replays.

Each game's folder says how its notation reads (``<game>/record.py``,
``describe(moves, names, before)``: the moves played from the engine state
``before``; see the game's rules page). Lines say only what every viewer may
know: a game whose record hides something (Rondo's draws) words those lines
without it. The move list numbers turns, not plies (docs/rules.md "The move
list"): each line says whether it opens a turn (``RecordLine.begins``), and
``turns`` groups lines into numbered turns.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from django.utils.translation import pgettext, pgettext_lazy

from games import sites
from games.engine import EngineError, get_rules
from games.engine.base import RecordLine
from games.folders import game_module

__all__ = [
    "Position",
    "RecordLine",
    "Turn",
    "describe",
    "describe_record",
    "hidden_plies",
    "number_lines",
    "ply_text",
    "position_at",
    "seat_labels",
    "turns",
]


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
    the start), in words: its lines among ``lines`` (``describe``'s, for the
    whole record), joined, else, for the game's chance step that reads with its
    outcome's line (a roll with its die), "<name> rolls.", else its notation
    after the seat's name."""
    if move is None:
        return "The starting position."
    texts = [line.text for line in lines if line.ply == move.ply]
    if texts:
        return " ".join(texts)
    who = names.get(move.seat, "") if move.seat is not None else ""
    step = sites.get_site(kind).chance_step if kind in sites.kinds() else None
    if move.notation == step:
        return f"{who} {step}s."
    return f"{who} {move.notation}".strip()


def describe(kind: str, moves, names: dict[int, str], before) -> list[RecordLine]:
    """Lines for ``moves`` (Move rows or objects with ply, actor, seat,
    notation, version_after), in order, played from the engine state
    ``before`` (the position before ``moves[0]``). ``names`` maps seat
    index to the label a line names its seat by ("ada (red)"). Raises the
    engine's errors (``EngineError``) for a record it refuses."""
    module = _record_module(kind)
    if module is None:  # no words for its notation: the notation itself
        return [RecordLine(m.ply, m.seat, m.notation) for m in moves]
    return module.describe(moves, names, before)


def describe_record(kind: str, moves, names: dict[int, str], before) -> list[RecordLine]:
    """``describe``, for a record that may not replay (a record edited by
    hand, a rule that changed): the lines of the plies up to the first one
    the engine refuses, then one line saying where the record stops
    replaying (no later ply is worded, and no notation is echoed: it may
    hold a hidden fact). Raises nothing for a refused record."""
    try:
        return describe(kind, moves, names, before)
    except EngineError:
        pass
    moves = list(moves)
    rules = get_rules(kind)
    state, good = before, 0
    for m in moves:
        try:
            state = rules.play(state, m.notation)
        except EngineError:
            break
        good += 1
    lines = describe(kind, moves[:good], names, before)
    if good < len(moves):
        bad = moves[good]
        lines.append(RecordLine(bad.ply, None, f"The record does not replay from ply {bad.ply}.", "turn"))
    return lines


#: A seat's colour as a move-list line names it after the seat's name, in a
#: sentence's lower case ("ada (red)"); the glossary's words.
LINE_COLOURS = {
    "red": pgettext_lazy("seat colour in a line", "red"),
    "green": pgettext_lazy("seat colour in a line", "green"),
    "yellow": pgettext_lazy("seat colour in a line", "yellow"),
    "blue": pgettext_lazy("seat colour in a line", "blue"),
    "purple": pgettext_lazy("seat colour in a line", "purple"),
}


def seat_labels(kind: str, names: dict[int, str], colours: dict[int, str]) -> dict[int, str]:
    """Seat index -> how a move-list line names the seat: its display name
    (``names``) and colour (``colours``), "ada (red)", "Computer 2 (Strong,
    blue)", so every line names who acted (docs/rules.md "The move list"),
    in the active language (the lines are kept per language, games.frames.moves).
    A game whose record module sets ``COLOURS_IN_LINES = False`` gets the
    names alone (Rondo: its seat colours are tile colours' names, and "dealt
    to ada (green)" would read as a green tile)."""
    if not getattr(_record_module(kind), "COLOURS_IN_LINES", True):
        return dict(names)
    out = {}
    for i, name in names.items():
        colour = colours.get(i)
        if not colour:
            out[i] = name
            continue
        word = str(LINE_COLOURS.get(colour, colour))
        if name.endswith(")"):
            # Translators: a computer's name without its closing parenthesis ("Computer 2 (Strong")
            # and its seat's colour, inside that parenthesis: "Computer 2 (Strong, blue)".
            out[i] = pgettext("a computer seat and its colour", "%(name)s, %(colour)s)") % {
                "name": name[:-1], "colour": word}
        else:
            # Translators: a seat's name and its colour: "ada (red)".
            out[i] = pgettext("a seat and its colour", "%(name)s (%(colour)s)") % {
                "name": name, "colour": word}
    return out


@dataclass
class Turn:
    """One numbered turn of the move list (or the set-up before the first):
    ``number`` 1, 2, ... (0 for the set-up), ``setup`` True for the set-up,
    ``lines`` its RecordLines in order."""

    number: int
    setup: bool
    lines: list


def number_lines(lines: list[RecordLine], turns_before: int = 0) -> list[tuple[RecordLine, int]]:
    """Each of ``lines`` with the number of the turn it belongs to:
    ``turns_before`` turns were opened before ``lines[0]``; a line that
    opens a turn ("turn") takes the next number, set-up lines take 0, and
    every other line the number of the turn open before it."""
    out = []
    count = current = turns_before
    for line in lines:
        if line.begins == "turn":
            count += 1
            current = count
        elif line.begins == "setup":
            current = 0
        out.append((line, current))
    return out


def turns(numbered: list[tuple[RecordLine, int]]) -> list[Turn]:
    """``number_lines``'s pairs grouped into turns, in order: a new Turn at
    each line that opens one, and at the first line (which may continue a
    turn opened before it)."""
    out: list[Turn] = []
    for line, number in numbered:
        if not out or line.begins:
            out.append(Turn(number, line.begins == "setup" or (not line.begins and number == 0), []))
        out[-1].lines.append(line)
    return out


@functools.cache
def _record_module(kind: str):
    """``<game folder>.record``, or None when the game has none; looked up
    once per process (every pushed frame describes moves)."""
    return game_module(kind, "record", optional=True)


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
