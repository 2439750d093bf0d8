"""What the match page's public partials need, read once per change for every
watcher (STYLE habit 6): ``public_context``; and what it and the seats'
controls reverse once (profile links, form targets)."""

from __future__ import annotations

import functools
import time

from django.urls import reverse

from accounts.holidays import on_holiday_until
from games import clock_words, marks, sites, themes, time_controls
from games.engine import CHANCE, get_rules
from games.folders import game_module
from games.frames.ratings import seat_ratings
from games.models import Match
from games.record import seat_labels


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


def _board(match: Match, view: dict) -> tuple[str, dict]:
    # An aborted (or otherwise stopped) match has no one to move: the board marks no turn.
    live = match.status in (Match.Status.ACTIVE, Match.Status.PAUSED)
    board_view = view if live else {**view, "turn": None, **({"mover": None} if "mover" in view else {})}
    return _board_context(match.kind, board_view)


def _seat_rows(match: Match, seats, view: dict, names: dict[int, str]) -> list[dict]:
    # Turn-based only: who is on holiday (their clocks stop; one query). Live play asks nothing.
    away = on_holiday_until([s.user_id for s in seats]) if match.turn_based and not match.is_over else {}
    rows = []
    for s in sorted(seats, key=lambda s: s.index):
        v = view["seats"][s.index]
        rows.append({"seat": s, "view": v, "name": names[s.index],
                     "profile_url": (profile_url(s.user.username)
                                     if s.user_id and not s.user.is_closed else None),
                     "is_turn": view.get("turn") == s.index and match.status == Match.Status.ACTIVE,
                     "holiday_until": away.get(s.user_id)})
    return rows


def _clock(match: Match) -> dict:
    now_ms = int(time.time() * 1000)
    clock = {
        "deadline_ms": int(match.deadline.timestamp() * 1000) if match.deadline else None,
        "server_now_ms": now_ms,
        # What the clock reads without JavaScript (whole seconds left, not the turn's length).
        "seconds_left": max(0, -(-(int(match.deadline.timestamp() * 1000) - now_ms) // 1000))
        if match.deadline else None,
    }
    if match.turn_based:
        # Days per decision: the clock reads in days and hours, beside the deadline
        # itself ({% local_time %}), not as a seconds countdown (docs/features.md).
        clock["turn_based"] = True
        clock["time_left"] = clock_words.left(clock["seconds_left"]) if match.deadline else None
        clock["control"] = time_controls.label(match.turn_seconds)
    return clock


def _results(match: Match, seat_rows: list[dict]) -> dict:
    return {
        "winners": [r["name"] for r in seat_rows if r["seat"].rank == 1],
        "rating_changes": [r for r in seat_rows if r["rating"] and r["rating"].change],
        "ratings_voided": any(r["rating"] and r["rating"].voided for r in seat_rows),
        # A rated match that ended with no rating change: a seat left before it
        # had moved (games.rating.is_ratable; docs/rules.md "Leaving").
        "rating_aborted": match.rated and match.status == Match.Status.FINISHED
        and not any(r["rating"] and (r["rating"].change or r["rating"].voided) for r in seat_rows),
    }


def public_context(match: Match, seats, state=None, last_move=None) -> dict:
    """Everything the public partials need, from the match row, its seats
    (with users) and its engine state (loaded from ``match.state`` if None).
    ``last_move``: the last move's marks (games.marks; ``{}``: none); None:
    read them from the record (a page or a snapshot of the match as it stands)."""
    rules = get_rules(match.kind)
    if state is None:
        state = rules.load(match.state)
    view = rules.view(state, None)
    board_template, board = _board(match, view)
    if last_move is None:
        last_move = marks.current(match, state)
    names = seat_names(seats)
    seat_rows = _seat_rows(match, seats, view, names)
    colours = {r["seat"].index: r["view"].get("colour") for r in seat_rows}
    ratings = seat_ratings(match, seats)
    for r in seat_rows:
        r["rating"] = ratings.get(r["seat"].index)
    to_move = rules.to_move(state)
    a_seat = isinstance(to_move, int) and to_move != CHANCE
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
        "to_move_name": names.get(to_move) if a_seat else None,
        "to_move_colour": colours.get(to_move) if a_seat else None,
        **_clock(match),
        **_results(match, seat_rows),
        "theme": themes.get(match.theme),  # cosmetic backdrop, kept out of the board's cached grid
        "game": sites.get_site(match.kind),  # the game's own words (GameSite)
    }
