"""A match as JSON: the per-match export (``/m/<id>/export.json``,
``games.views_history.export``), and each match of a player's data file
(``accounts.data``). A closed account's seat is named "deleted player"."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from games import time_controls
from games.models import Match, Move, Seat


def prefetch(matches: QuerySet) -> QuerySet:
    """``matches`` with what ``match_data(..., prefetched=True)`` reads: a few
    queries per batch of matches rather than three per match."""
    return matches.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index")),
        "rating_changes",
        Prefetch("moves", queryset=Move.objects.order_by("ply")),
    )


def match_data(match: Match, *, prefetched: bool = False) -> dict:
    """A finished or aborted match: seed, options, the time control (live
    or turn-based, its time a decision), players, moves, result. With
    ``prefetched``, ``match`` comes from ``prefetch`` (no query more)."""
    if prefetched:
        seats, changes, moves = list(match.seats.all()), list(match.rating_changes.all()), match.moves.all()
    else:
        seats = list(match.seats.select_related("user"))
        changes = match.rating_changes.all()
        moves = Move.objects.filter(match=match).order_by("ply")
    changes = {c.user_id: c for c in changes}
    data = {
        "format": "parlour-match-1",
        "id": match.public_id,
        "game": match.kind,
        "status": match.status,
        "end_reason": match.end_reason,
        "rated": match.rated,
        "public": match.is_public,
        "event": match.event or None,
        "event_url": match.event_url or None,
        "options": match.options,
        "turn_seconds": match.turn_seconds,
        # The time control by name (games/time_controls.py), and as a PGN
        # TimeControl tag would give it: one decision per turn_seconds.
        "time_control": {"kind": time_controls.kind_label(match.turn_seconds),
                         "per_decision": time_controls.label(match.turn_seconds),
                         "pgn": f"1/{match.turn_seconds}"},
        "idle_limit": match.idle_limit,
        "created_at": match.created_at.isoformat(),
        "started_at": match.started_at.isoformat() if match.started_at else None,
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        "seed_commitment": match.seed_hash,
        "seed": match.revealed_seed,
        "start_state": match.start_state,
        "players": [
            {
                "seat": s.index,
                "colour": s.colour,
                "username": s.user.display_name if s.user_id else None,
                "computer_level": s.computer_level or None,
                "status": s.status,
                "rank": s.rank,
                "rating_before": changes[s.user_id].before if s.user_id in changes else None,
                "rating_after": changes[s.user_id].after if s.user_id in changes else None,
            }
            for s in seats
        ],
        "moves": [
            {"ply": m.ply, "actor": m.actor, "seat": m.seat, "move": m.notation,
             "chance_index": m.chance_index}
            for m in moves
        ],
        "result": {"ranks": [s.rank for s in seats], "reason": match.end_reason},
    }
    return data
