"""The match page's frames, rendered once per audience (STYLE habit 6).

``public_frame`` holds what every watcher may see (board, dice, status and
clock, seats, move list, announcement); ``seat_frame`` holds one seat's own
controls. Both are sequences of htmx out-of-band elements and end with
``#frame-version``, which the page uses to drop stale frames. The full page
(``games/match.html``) is built from the same partials
(templates/games/match_parts.html); ``public_update`` sends only the parts
a change changed (games.frames.wire).
"""

from __future__ import annotations

from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import get_language

from games.engine import get_rules
from games.frames import moves, wire
from games.frames.contexts import match_urls
from games.models import Match
from games.rating import every_seat_moved


def _marked_frame(ctx: dict, new_moves=None, before=None) -> str:
    match = ctx["match"]
    # Rendered once for every watcher, so in no one's time zone: a turn-based
    # deadline is written in UTC and says so; static/js/times.js shows it in each
    # browser's zone (the page itself, rendered for one viewer, is in theirs).
    ctx = dict(ctx, times_utc=True)
    if new_moves is None:
        ctx = dict(ctx, **moves.move_list(match, ctx), snapshot=True)
    else:
        ctx = dict(ctx, **moves.new_lines(match, ctx, new_moves, before), snapshot=False)
    return render_to_string("games/match_parts.html#public_frame", ctx)


def public_frame(ctx: dict, new_moves=None, before=None) -> str:
    """The whole public frame. ``new_moves``: the Move rows this change added
    (their lines are appended to the list), played from ``before`` (the
    engine state before them, when the caller holds it); None: a snapshot
    that replaces the list."""
    return wire.strip(_marked_frame(ctx, new_moves, before))


def render_page(request, template: str, ctx: dict) -> HttpResponse:
    """``template`` rendered for ``request`` as ``django.shortcuts.render``
    would, without the public frame's part markers (games.frames.wire) that
    the board and seats partials write: for the match and replay pages."""
    return HttpResponse(wire.strip(render_to_string(template, ctx, request=request)))


def public_update(ctx: dict, new_moves, before=None) -> str:
    """The public update of the change that made ``ctx["match"].version``:
    only the parts of the page that changed since the version before, when
    this process sent that one, else the whole frame (games.frames.wire).
    ``new_moves`` and ``before`` as for ``public_frame``. In the active
    language: the last frame sent is kept per match and language."""
    match = ctx["match"]
    return wire.update(moves.match_key(match) + (get_language(),), match.version,
                       _marked_frame(ctx, new_moves, before))


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


def error_frame(message: str, version: int) -> str:
    """An error message for one socket, with the version it refers to."""
    return render_to_string("games/match_parts.html#error_frame", {"message": message, "version": version})
