"""HTML fragments of the match page, rendered once per audience (STYLE habit 6).

``public_frame`` holds what every watcher may see (board, dice, status and
clock, seats, move list, announcement); ``seat_frame`` holds one seat's own
controls. Both are sequences of htmx out-of-band elements and end with
``#frame-version``, which the page uses to drop stale frames. The full page
(``games/match.html``) is built from the same partials.
"""

from __future__ import annotations

import functools
import json
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import NamedTuple

from django.http import HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe

from accounts import elo
from accounts.models import Rating
from games import deltas, marks, sites, themes
from games.engine import CHANCE, EngineError, get_rules
from games.folders import game_module
from games.models import Match, Move, RatingChange, RatingVoid
from games.rating import every_seat_moved
from games.record import Turn, describe_record, number_lines, seat_labels, turns

MOVE_LIST_LENGTH = 60  # lines shown on the page; the replay has all of them


@functools.cache
def _svg(kind: str):
    """``<game folder>.svg``, the board's drawing (imported once per process)."""
    return game_module(kind, "svg")


def _board_context(kind: str, view: dict) -> tuple[str, dict]:
    return f"games/{kind}/board.html", _svg(kind).board_context(view)


@functools.lru_cache(maxsize=4096)
def profile_url(username: str) -> str:
    """``username``'s profile page (reversing a URL costs more than the rest
    of a seat's row; a live match renders its seats on every move)."""
    return reverse("profile", args=[username])


@functools.lru_cache(maxsize=4096)
def match_urls(public_id: str) -> dict[str, str]:
    """The match's form targets, reversed once per match, not once per button
    of every seat frame: {"move", "leave", "pause", "resume"} -> path."""
    return {name: reverse(f"match_{name}", args=[public_id]) for name in ("move", "leave", "pause", "resume")}


def seat_names(seats) -> dict[int, str]:
    """Seat index -> display name ("ada", "Computer 2 (Strong)")."""
    return {s.index: s.display_name for s in seats}


@dataclass(frozen=True)
class SeatRating:
    """A seat's rating as the match page shows it (README "Ranked play"):
    ``before``, the rating the match began with ("1500?" while provisional:
    accounts.elo.display); once the match is rated, ``after`` and ``change``
    ("+12", "−12": whole rating points, the difference of the two shown
    values); "" until then. ``voided``: a moderator voided the match's
    rating changes (README "Moderation"): only ``before`` is shown."""

    before: str
    after: str = ""
    change: str = ""
    voided: bool = False


_ratings: OrderedDict[tuple, dict] = OrderedDict()
_ratings_lock = threading.Lock()


def _signed(points: int) -> str:
    return f"+{points}" if points >= 0 else f"−{-points}"


def seat_ratings(match: Match, seats) -> dict[int, SeatRating]:
    """Seat index -> SeatRating for a ranked match (``Match.rated``), {} for
    any other. While the match is played: each player's current rating in
    the game, which no other match changes (one ranked match at a time).
    Once it is rated: its RatingChange rows, the provisional mark from the
    games played before it. While it is played: read once per match and
    per process (every frame of a move shows the seats, README "How live
    play works"); once it has ended, read each time (its pages are rare, and
    a moderator may void its changes later)."""
    if not match.rated:
        return {}
    key = (match.public_id, match.created_at, match.is_over)
    with _ratings_lock:
        found = _ratings.get(key)
    if found is not None:
        return found
    users = {s.user_id: s.index for s in seats if s.user_id}
    rows = {r.user_id: r for r in Rating.objects.filter(kind=match.kind, user_id__in=users)}
    changes = {}
    voided = False
    if match.is_over:
        changes = {c.user_id: c for c in RatingChange.objects.filter(match=match)}
        voided = bool(changes) and RatingVoid.objects.filter(match=match).exists()
    out = {}
    for user_id, index in users.items():
        row = rows.get(user_id)
        games = row.games if row else 0
        change = changes.get(user_id)
        if change is None:
            out[index] = SeatRating(elo.display(row.rating if row else elo.INITIAL_RATING, games))
        elif voided:  # taken back: the rating it began with, and no change
            out[index] = SeatRating(elo.display(change.before, games), voided=True)
        else:
            before, after = round(change.before), round(change.after)
            out[index] = SeatRating(elo.display(change.before, max(games - 1, 0)),
                                    elo.display(change.after, games), _signed(after - before))
    if match.is_over:
        return out  # rated now, or not yet, and a moderator may void it later: read each time
    with _ratings_lock:
        _ratings[key] = out
        while len(_ratings) > _TAILS_KEPT:
            _ratings.popitem(last=False)
    return out


def public_context(match: Match, seats, state=None, last_move=None) -> dict:
    """Everything the public partials need, from the match row, its seats
    (with users) and its engine state (loaded from ``match.state`` if None).
    ``last_move``: the last move's marks (games.marks; ``{}``: none); None:
    read them from the record (a page or a snapshot of the match as it stands)."""
    rules = get_rules(match.kind)
    if state is None:
        state = rules.load(match.state)
    view = rules.view(state, None)
    # An aborted (or otherwise stopped) match has no one to move: the board marks no turn.
    live = match.status in (Match.Status.ACTIVE, Match.Status.PAUSED)
    board_view = view if live else {**view, "turn": None, **({"mover": None} if "mover" in view else {})}
    board_template, board = _board_context(match.kind, board_view)
    if last_move is None:
        last_move = marks.current(match, state)
    names = seat_names(seats)
    seat_rows = []
    for s in sorted(seats, key=lambda s: s.index):
        v = view["seats"][s.index]
        seat_rows.append({"seat": s, "view": v, "name": names[s.index],
                          "profile_url": profile_url(s.user.username) if s.user_id else None,
                          "is_turn": view.get("turn") == s.index and match.status == Match.Status.ACTIVE})
    colours = {r["seat"].index: r["view"].get("colour") for r in seat_rows}
    ratings = seat_ratings(match, seats)
    for r in seat_rows:
        r["rating"] = ratings.get(r["seat"].index)
    to_move = rules.to_move(state)
    now_ms = int(time.time() * 1000)
    return {
        "match": match,
        "state": state,
        "view": view,
        "board": board,
        "board_template": board_template,
        "last_move": last_move,
        "seat_rows": seat_rows,
        "names": names,
        "labels": seat_labels(match.kind, names, colours),
        "colours": colours,
        "to_move": to_move,
        "to_move_name": names.get(to_move) if isinstance(to_move, int) and to_move != CHANCE else None,
        "to_move_colour": colours.get(to_move) if isinstance(to_move, int) and to_move != CHANCE else None,
        "deadline_ms": int(match.deadline.timestamp() * 1000) if match.deadline else None,
        "server_now_ms": now_ms,
        # What the clock reads without JavaScript (whole seconds left, not the turn's length).
        "seconds_left": max(0, -(-(int(match.deadline.timestamp() * 1000) - now_ms) // 1000))
        if match.deadline else None,
        "winners": [r["name"] for r in seat_rows if r["seat"].rank == 1],
        "rating_changes": [r for r in seat_rows if r["rating"] and r["rating"].change],
        "ratings_voided": any(r["rating"] and r["rating"].voided for r in seat_rows),
        # A rated match that ended with no rating change: a seat left before it
        # had moved (games.rating.is_ratable; docs/rules.md "Leaving").
        "rating_aborted": match.rated and match.status == Match.Status.FINISHED
        and not any(r["rating"] and (r["rating"].change or r["rating"].voided) for r in seat_rows),
        "theme": themes.get(match.theme),  # cosmetic backdrop, kept out of the board's cached grid
        "game": sites.get_site(match.kind),  # the game's own words (GameSite)
    }


@dataclass
class _Tail:
    """What the move list of one match read last (``_tails``): the record up
    to ``ply`` (the last ply read, with ``notation``), the engine state
    after it, how many turns it opened, and its last lines with their turn
    numbers."""

    ply: int
    notation: str
    state: object
    turns: int
    lines: list


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


_tails: OrderedDict[tuple, _Tail] = OrderedDict()
_tails_lock = threading.Lock()
_TAILS_KEPT = 512


def _tail_key(match: Match) -> tuple:
    # The id and the creation time: a test database may give a later match the same id.
    return match.public_id, match.created_at


def _tail_get(match: Match) -> _Tail | None:
    with _tails_lock:
        return _tails.get(_tail_key(match))


def _tail_put(match: Match, tail: _Tail) -> None:
    key = _tail_key(match)
    with _tails_lock:
        kept = _tails.get(key)
        if kept is not None and kept.ply > tail.ply:
            return  # another thread read further (a move came between the two reads)
        _tails[key] = tail
        _tails.move_to_end(key)
        while len(_tails) > _TAILS_KEPT:
            _tails.popitem(last=False)


def _extend(tail: _Tail | None, lines, last, state) -> _Tail:
    """``tail`` (None: the record's start) with ``lines`` added, the record
    now read up to the Move ``last``, ``state`` the position after it."""
    before = tail.turns if tail else 0
    numbered = (tail.lines if tail else []) + number_lines(lines, before)
    opened = before + sum(1 for line in lines if line.begins == "turn")
    return _Tail(last.ply, last.notation, state, opened, numbered[-MOVE_LIST_LENGTH:])


def _record_tail(match: Match, labels: dict[int, str], state) -> _Tail:
    """The move list's last MOVE_LIST_LENGTH lines, numbered by turn
    (docs/rules.md "The move list"). The record is append-only, so what an
    earlier read of this match kept (``_tails``, per process) is extended
    with the plies since; otherwise the whole record is replayed from the
    start (a page or snapshot, not a move, pays for that). ``state``: the
    match's current engine state (kept when it is the record's last)."""
    rules = get_rules(match.kind)
    tail = _tail_get(match)
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
    new = _extend(tail, lines, moves[-1], state)
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
    if tail is not None and tail.ply == new_moves[0].ply - 1 and ctx.get("state") is not None:
        _tail_put(match, _extend(tail, lines, new_moves[-1], ctx["state"]))
    groups = _shown_turns(turns(number_lines(lines)), ctx["colours"])
    continued = groups[0].lines if groups and lines[0].begins == "" else []
    return {"lines": lines, "continued": continued, "opened": groups[1:] if continued else groups}


def _marked_frame(ctx: dict, new_moves=None, before=None) -> str:
    match = ctx["match"]
    if new_moves is None:
        ctx = dict(ctx, **move_list(match, ctx), snapshot=True)
    else:
        ctx = dict(ctx, **new_lines(match, ctx, new_moves, before), snapshot=False)
    return render_to_string("games/match_parts.html#public_frame", ctx)


def public_frame(ctx: dict, new_moves=None, before=None) -> str:
    """The whole public frame. ``new_moves``: the Move rows this change added
    (their lines are appended to the list), played from ``before`` (the
    engine state before them, when the caller holds it); None: a snapshot
    that replaces the list."""
    return deltas.strip(_marked_frame(ctx, new_moves, before))


def render_page(request, template: str, ctx: dict) -> HttpResponse:
    """``template`` rendered for ``request`` as ``django.shortcuts.render``
    would, without the public frame's part markers (games/deltas.py) that
    the board and seats partials write: for the match and replay pages."""
    return HttpResponse(deltas.strip(render_to_string(template, ctx, request=request)))


def public_update(ctx: dict, new_moves, before=None) -> str:
    """The public update of the change that made ``ctx["match"].version``:
    only the parts of the page that changed since the version before, when
    this process sent that one, else the whole frame (games/deltas.py).
    ``new_moves`` and ``before`` as for ``public_frame``."""
    match = ctx["match"]
    return deltas.update(_tail_key(match), match.version, _marked_frame(ctx, new_moves, before))


def seat_frame(match: Match, seat, state=None, request=None, page: bool = False) -> str:
    """The controls of ``seat`` (a Seat row): its legal moves as buttons when
    it is to move, else what it waits for; plus leave. ``page``: for the full
    page (no frame version; forms get the request's CSRF token)."""
    rules = get_rules(match.kind)
    if state is None:
        state = rules.load(match.state)
    view = rules.view(state, seat.index)
    my_turn = (
        match.status == Match.Status.ACTIVE
        and seat.status == "playing"
        and rules.to_move(state) == seat.index
    )
    # A rated match's Leave says what it does (docs/rules.md "Leaving"): before
    # every seat has moved it aborts the rating ("abort"), after it is a loss.
    # One query, in rated live matches only.
    leave_rated = None
    live = match.status in (Match.Status.ACTIVE, Match.Status.PAUSED)
    if match.rated and seat.status == "playing" and live:
        leave_rated = "loss" if every_seat_moved(match) else "abort"
    return render_to_string(
        "games/match_parts.html#" + ("controls" if page else "seat_frame"),
        {"match": match, "seat": seat, "seat_view": view, "my_turn": my_turn,
         "legal": view.get("moves", []) if my_turn else [], "frame_kind": "seat",
         "leave_rated": leave_rated,
         "urls": match_urls(match.public_id),
         "controls_template": f"games/{match.kind}/controls.html"},
        request=request,
    )


#: The most a pushed WebSocket message carries when it packs several frames
#: (``pack``), in bytes of UTF-8. A frame larger than this travels alone; the
#: transport's limit is config.servers.WS_MAX_MESSAGE (256 KB).
MESSAGE_BYTES = 48 * 1024


def pack(frames: list[str]) -> list[str]:
    """``frames`` (HTML fragments, in order) as WebSocket messages: adjacent
    frames joined while a message stays within ``MESSAGE_BYTES``, so a socket
    usually gets one message per change (socket writes are much of a move's
    cost: docs/benchmarks.md) yet never one the server cannot send (a
    Roundabout seat's choices after a 2 and a 1, with the board, came to
    70 KB). Empty frames are dropped."""
    messages: list[str] = []
    size = 0
    for frame in frames:
        if not frame:
            continue
        n = len(frame.encode())
        if messages and size + n <= MESSAGE_BYTES:
            messages[-1] += frame
            size += n
        else:
            messages.append(frame)
            size = n
    return messages


def choices_json(choices: list) -> str:
    """``choices`` (a seat's board choices: games/templatetags/board_parts.py) as
    JSON safe to place as an element's text: ``<``, ``>`` and ``&`` escaped the
    way ``json_script`` does, quotes left alone (a tenth of the size of an
    attribute's ``&quot;``)."""
    text = json.dumps(choices, separators=(",", ":"))
    return mark_safe(text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e"))


#: The match socket's heartbeat (games/consumers.py): sent when a socket has sent
#: nothing for settings.PARLOUR_HEARTBEAT_SECONDS; static/js/match.js drops it
#: unswapped and shows "Live" only while frames (this one included) arrive.
HEARTBEAT_FRAME = '<div id="heartbeat" hidden></div>'


def error_frame(message: str, version: int) -> str:
    """An error message for one socket, with the version it refers to."""
    return render_to_string("games/match_parts.html#error_frame", {"message": message, "version": version})
