"""HTML fragments of the match page, rendered once per audience (STYLE habit 6).

``public_frame`` holds what every watcher may see (board, dice, status and
clock, seats, move list, announcement); ``seat_frame`` holds one seat's own
controls. Both are sequences of htmx out-of-band elements and end with
``#frame-version``, which the page uses to drop stale frames. The full page
(``games/match.html``) is built from the same partials.
"""

from __future__ import annotations

import functools
import importlib
import json
import time

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe

from games import marks, sites, themes
from games.engine import CHANCE, game_package, get_rules
from games.models import Match, Move
from games.record import describe

MOVE_LIST_LENGTH = 60  # lines shown on the page; the replay has all of them


@functools.cache
def _svg(kind: str):
    """``<game folder>.svg``, the board's drawing (imported once per process)."""
    return importlib.import_module(f"{game_package(kind)}.svg")


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
    to_move = rules.to_move(state)
    now_ms = int(time.time() * 1000)
    return {
        "match": match,
        "view": view,
        "board": board,
        "board_template": board_template,
        "last_move": last_move,
        "seat_rows": seat_rows,
        "names": names,
        "to_move": to_move,
        "to_move_name": names.get(to_move) if isinstance(to_move, int) and to_move != CHANCE else None,
        "deadline_ms": int(match.deadline.timestamp() * 1000) if match.deadline else None,
        "server_now_ms": now_ms,
        # What the clock reads without JavaScript (whole seconds left, not the turn's length).
        "seconds_left": max(0, -(-(int(match.deadline.timestamp() * 1000) - now_ms) // 1000))
        if match.deadline else None,
        "winners": [r["name"] for r in seat_rows if r["seat"].rank == 1],
        "theme": themes.get(match.theme),  # cosmetic backdrop, kept out of the board's cached grid
        "game": sites.get_site(match.kind),  # the game's own words (GameSite)
    }


def move_lines(match: Match, names: dict[int, str], moves=None, after: dict | None = None) -> list:
    """Move-list lines: of ``moves`` if given, else the last MOVE_LIST_LENGTH
    plies. ``after``: the public view after the last of them (games.record)."""
    if moves is not None:
        return describe(match.kind, moves, names, None, after)
    # One ply more than is shown: when the shown plies begin with a die, the
    # ply before says who rolled it (its own line, if any, is not shown).
    recent = list(Move.objects.filter(match=match).order_by("-ply")[: MOVE_LIST_LENGTH + 2])[::-1]
    first = recent[max(0, len(recent) - (MOVE_LIST_LENGTH + 1))].ply if recent else 0
    return [line for line in describe(match.kind, recent, names, None, after) if line.ply >= first]


def public_frame(ctx: dict, new_moves=None) -> str:
    """The public frame. ``new_moves``: the Move rows this change added (their
    lines are appended to the list); None: a snapshot that replaces the list."""
    match = ctx["match"]
    if new_moves is None:
        ctx = dict(ctx, lines=move_lines(match, ctx["names"], after=ctx["view"]), snapshot=True)
    else:
        ctx = dict(ctx, lines=move_lines(match, ctx["names"], new_moves, ctx["view"]), snapshot=False)
    return render_to_string("games/match_parts.html#public_frame", ctx)


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
    return render_to_string(
        "games/match_parts.html#" + ("controls" if page else "seat_frame"),
        {"match": match, "seat": seat, "seat_view": view, "my_turn": my_turn,
         "legal": view.get("moves", []) if my_turn else [], "frame_kind": "seat",
         "urls": match_urls(match.public_id),
         "controls_template": f"games/{match.kind}/controls.html"},
        request=request,
    )


def choices_json(choices: list) -> str:
    """``choices`` (a seat's board choices: templates/games/board_choices.html) as
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
