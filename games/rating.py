"""Rating a finished match, and taking a voided one back (README "Ranked
play"): called by ``games.actions`` from inside the transaction that
finishes the match, so the match's result, its RatingChange rows and the
players' Rating rows commit together or not at all; and by
``moderation.actions.void_match``. The Rating rows themselves are written
only by ``accounts.ratings``.

A match is rated only when it came from the ranked queue or is the rated
rematch of one (``Match.rated``; README "Playing again"), every seat is a
human, play began and, if anyone left, every seat had made a move of its
own (docs/rules.md "Leaving": leaving before that aborts the rating, as
Lichess aborts a game a side has not moved in). It is rated exactly once: one
RatingChange per (match, user) under a unique constraint, and a match that
already has changes is left alone. The players' Rating rows are locked in a
fixed order (``accounts.ratings``), so two matches of one user that end
together both count, one after the other.
"""

from __future__ import annotations

from accounts import elo, ratings
from games.models import Match, Move, RatingChange, RatingVoid


def every_seat_moved(match: Match) -> bool:
    """Whether every seat of ``match`` has a move of its own in its record
    (a roll counts; a timeout or a leave is the server's). One query."""
    moved = Move.objects.filter(match=match, actor=Move.Actor.SEAT).values("seat")
    return not match.seats.exclude(index__in=moved).exists()


def is_ratable(match: Match, seats) -> bool:
    """True when ``match`` (with its Seat rows ``seats``) should be rated:
    from the ranked queue, all seats human, play began, every seat ranked,
    and, when a seat left or idled out, every seat had moved
    (``every_seat_moved``; docs/rules.md "Leaving")."""
    seats = list(seats)
    return (
        match.rated
        and match.started_at is not None
        and len(seats) >= 2
        and all(s.user_id and s.rank for s in seats)
        and (all(s.status == "playing" for s in seats) or every_seat_moved(match))
    )


def rate_match(match: Match, seats) -> list[RatingChange]:
    """Update the players' ratings from the seats' ranks (``Seat.rank``, 1 =
    first; leavers already rank below everyone who stayed) through
    ``accounts.ratings.apply_results`` and record one RatingChange per
    player. Must run inside the finishing transaction.

    Returns the new RatingChange rows; [] when the match is not ratable or
    was rated already (a repeated finish changes nothing).
    """
    seats = sorted(seats, key=lambda s: s.index)
    if not is_ratable(match, seats) or RatingChange.objects.filter(match=match).exists():
        return []
    steps = ratings.apply_results(match.kind, [s.user_id for s in seats], [s.rank for s in seats])
    return RatingChange.objects.bulk_create([
        RatingChange(match=match, user_id=step.user_id, kind=match.kind,
                     before=step.rating_before, after=step.rating_after, delta=step.delta)
        for step in steps
    ])


def void_ratings(match: Match, voided_by, reason: str) -> list[RatingVoid]:
    """Take a finished rated match's rating changes back (README
    "Moderation", Void), inside the caller's transaction, and record one
    RatingVoid per player (rating, games and peak before and after).

    Each player's recorded delta is subtracted from their current rating
    (``accounts.ratings.take_back``, floor 100); later matches keep their
    own deltas; the peak is ``replayed_peak``. The match's RatingChange rows
    stay as the record of what was taken back. Returns [] when the match has
    no rating changes or was voided already (nothing changes)."""
    changes = {c.user_id: c.delta for c in RatingChange.objects.filter(match=match)}
    if not changes or RatingVoid.objects.filter(match=match).exists():
        return []
    steps = ratings.take_back(match.kind, changes, lambda user_id, current: replayed_peak(
        user_id, match.kind, current, without=match))
    return RatingVoid.objects.bulk_create([
        RatingVoid(match=match, user_id=s.user_id, kind=match.kind, delta=changes[s.user_id],
                   rating_before=s.rating_before, rating_after=s.rating_after,
                   games_before=s.games_before, games_after=s.games_after,
                   peak_before=s.peak_before, peak_after=s.peak_after,
                   voided_by=voided_by, reason=reason)
        for s in steps
    ])


def replayed_peak(user_id: int, kind: str, current: float, *, without: Match | None = None) -> float:
    """The peak rating (rating points) of ``user_id`` in ``kind`` recomputed
    from their rated history: their RatingChange rows oldest first, leaving
    out ``without`` and every match voided for them, replayed from the
    ``before`` of their first rated match in ``kind`` (1500 if none), with the
    floor at each step; the highest of that start, each replayed value and
    ``current``."""
    history = RatingChange.objects.filter(user_id=user_id, kind=kind).order_by("created", "pk")
    first = history.values_list("before", flat=True).first()
    remaining = history.exclude(match__rating_voids__user_id=user_id)
    if without is not None:
        remaining = remaining.exclude(match=without)
    value = peak = first if first is not None else elo.INITIAL_RATING
    for delta in remaining.values_list("delta", flat=True):
        value = max(elo.RATING_FLOOR, value + delta)
        peak = max(peak, value)
    return max(peak, current)
