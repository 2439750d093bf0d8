"""The match page's move list (docs/rules.md "The move list"): its last
MOVE_LIST_LENGTH lines, numbered by turn, kept per match and process and
extended a move at a time; an update's new lines; a replay's whole record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from django.utils.translation import get_language

from games.engine import EngineError, get_rules
from games.frames.cache import Kept
from games.models import Match, Move
from games.record import Turn, describe_record, number_lines, turns

MOVE_LIST_LENGTH = 60  # lines shown on the page; the replay has all of them


@dataclass
class _Tail:
    """What the move list of one match read last (``_tails``): the record up
    to ``ply`` (the last ply read, with ``notation``), the engine state
    after it, how many turns it opened, and its last lines with their turn
    numbers, written with ``labels``, the seats' names then (a name changed
    since, an account closed, has the lines written anew)."""

    ply: int
    notation: str
    state: object
    turns: int
    lines: list
    labels: dict | None = None


class ShownLine(NamedTuple):
    """A move-list line as the page shows it: the RecordLine's ``ply``,
    ``seat``, ``text`` and ``begins``, the seat's ``colour`` ("" for none) and
    the RecordLine's ``note`` (its title)."""

    ply: int
    seat: int | None
    text: str
    begins: str
    colour: str
    note: str = ""


def _shown(lines, colours: dict) -> list[ShownLine]:
    return [
        ShownLine(line.ply, line.seat, line.text, line.begins, colours.get(line.seat) or "", line.note)
        for line in lines
    ]


def _shown_turns(groups, colours: dict) -> list[Turn]:
    return [Turn(g.number, g.setup, _shown(g.lines, colours)) for g in groups]


_TAILS_KEPT = 512  # matches whose move list a process keeps
_tails = Kept(_TAILS_KEPT)  # (match_key, language) -> _Tail: the lines are written in the language


def match_key(match: Match) -> tuple:
    """What names ``match`` in the frames' per-process caches: its public id
    and creation time (a test database may give a later match the same id)."""
    return match.public_id, match.created_at


def _tail_get(match: Match) -> _Tail | None:
    return _tails.get((match_key(match), get_language()))


def _not_behind(kept: _Tail, tail: _Tail) -> bool:
    # Not when another thread read further (a move came between the two reads).
    return kept.ply <= tail.ply


def _tail_put(match: Match, tail: _Tail) -> None:
    _tails.put((match_key(match), get_language()), tail, _not_behind)


def _extend(tail: _Tail | None, lines, last, state, labels: dict) -> _Tail:
    """``tail`` (None: the record's start) with ``lines`` added, the record
    now read up to the Move ``last``, ``state`` the position after it."""
    before = tail.turns if tail else 0
    numbered = (tail.lines if tail else []) + number_lines(lines, before)
    opened = before + sum(1 for line in lines if line.begins == "turn")
    return _Tail(last.ply, last.notation, state, opened, numbered[-MOVE_LIST_LENGTH:], labels)


def _record_tail(match: Match, labels: dict[int, str], state) -> _Tail:
    """The move list's last MOVE_LIST_LENGTH lines, numbered by turn
    (docs/rules.md "The move list"). The record is append-only, so what an
    earlier read of this match kept (``_tails``, per process) is extended
    with the plies since; otherwise the whole record is replayed from the
    start (a page or snapshot, not a move, pays for that). ``state``: the
    match's current engine state (kept when it is the record's last)."""
    rules = get_rules(match.kind)
    tail = _tail_get(match)
    if tail is not None and tail.labels != labels:
        tail = None  # a seat's name changed (an account closed: "deleted player"): write them anew
    moves = None
    # Only the plies the match row counts: a move committed since the row was read
    # belongs to the next version, whose update appends its lines.
    if tail is not None:
        moves = list(Move.objects.filter(match=match, ply__gte=tail.ply, ply__lt=match.ply_count)
                     .order_by("ply"))
        if not moves or moves[0].ply != tail.ply or moves[0].notation != tail.notation:
            tail, moves = None, None  # not this record (a test rewrote it): read it all
        else:
            moves = moves[1:]
    if tail is None:
        moves = list(Move.objects.filter(match=match, ply__lt=match.ply_count).order_by("ply"))
        if not moves:
            return _Tail(-1, "", None, 0, [])
        before = rules.load(match.start_state)
    else:
        before = tail.state
    if not moves:
        return tail
    lines = describe_record(match.kind, moves, labels, before)
    new = _extend(tail, lines, moves[-1], state, labels)
    if state is not None:
        _tail_put(match, new)
    return new


def _before(match: Match, first_ply: int):
    """The engine state before ply ``first_ply`` of ``match``, replayed from
    its start (for callers that do not hold it); None when the record does
    not replay."""
    rules = get_rules(match.kind)
    notations = (
        Move.objects.filter(match=match, ply__lt=first_ply).order_by("ply").values_list("notation", flat=True)
    )
    try:
        state = rules.load(match.start_state)
        for notation in notations:
            state = rules.play(state, notation)
    except EngineError:
        return None
    return state


def replay_turns(lines, colours: dict) -> list[Turn]:
    """A whole record's lines (record.describe_record) as the replay lists
    them: numbered turns of ShownLines, as on the match page."""
    return _shown_turns(turns(number_lines(lines)), colours)


def move_list(match: Match, ctx: dict) -> dict:
    """The snapshot's move list, for ``games/match_parts.html#movelist``:
    ``turns`` (record.Turn, the last MOVE_LIST_LENGTH lines grouped by turn)
    and ``lines`` (those lines, for the announcement)."""
    tail = _record_tail(match, ctx["labels"], ctx.get("state"))
    groups = _shown_turns(turns(tail.lines), ctx["colours"])
    return {"turns": groups, "lines": [line for line, _ in tail.lines]}


def new_lines(match: Match, ctx: dict, new_moves, before=None) -> dict:
    """An update's move-list lines, for ``#public_frame``: ``lines`` (of
    ``new_moves``, the Move rows the change added, played from ``before``,
    the engine state before them; read from the record if None),
    ``continued`` (the lines that belong to the turn the page's list ends
    with) and ``opened`` (record.Turn, the turns they open; their numbers
    follow on the page's own)."""
    if not new_moves:
        return {"lines": [], "continued": [], "opened": []}
    if before is None:
        before = _before(match, new_moves[0].ply)
        if before is None:
            return {"lines": [], "continued": [], "opened": []}
    lines = describe_record(match.kind, new_moves, ctx["labels"], before)
    tail = _tail_get(match)
    if (tail is not None and tail.ply == new_moves[0].ply - 1 and ctx.get("state") is not None
            and tail.labels == ctx["labels"]):
        _tail_put(match, _extend(tail, lines, new_moves[-1], ctx["state"], ctx["labels"]))
    groups = _shown_turns(turns(number_lines(lines)), ctx["colours"])
    continued = groups[0].lines if groups and lines[0].begins == "" else []
    return {"lines": lines, "continued": continued, "opened": groups[1:] if continued else groups}
