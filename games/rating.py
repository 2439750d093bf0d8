"""Rating a finished match (issue 5 "Elo"): called by ``games.actions`` from
inside the transaction that finishes the match, so the match's result, its
RatingChange rows and the players' Rating rows commit together or not at all.

A match is rated only when it came from the ranked queue (``Match.rated``),
every seat is a human and play began. It is rated exactly once: one
RatingChange per (match, user) under a unique constraint, and a match that
already has changes is left alone. The players' Rating rows are locked in a
fixed order (by user id; ``SELECT ... FOR UPDATE`` on PostgreSQL, SQLite's
IMMEDIATE transactions serialise writers), so two matches of one user that
end together both count, one after the other.
"""

from __future__ import annotations

from accounts import elo
from accounts.models import Rating
from games.models import Match, RatingChange


def is_ratable(match: Match, seats) -> bool:
    """True when ``match`` (with its Seat rows ``seats``) should be rated:
    from the ranked queue, all seats human, play began, every seat ranked."""
    seats = list(seats)
    return (
        match.rated
        and match.started_at is not None
        and len(seats) >= 2
        and all(s.user_id and s.rank for s in seats)
    )


def rate_match(match: Match, seats) -> list[RatingChange]:
    """Update the players' ratings from the seats' ranks (``Seat.rank``, 1 =
    first; leavers already rank below everyone who stayed) and record one
    RatingChange per player. Must run inside the finishing transaction.

    Returns the new RatingChange rows; [] when the match is not ratable or
    was rated already (a repeated finish changes nothing).
    """
    seats = sorted(seats, key=lambda s: s.index)
    if not is_ratable(match, seats) or RatingChange.objects.filter(match=match).exists():
        return []
    user_ids = sorted(s.user_id for s in seats)
    for user_id in user_ids:  # the rows must exist before they can be locked
        Rating.objects.get_or_create(user_id=user_id, kind=match.kind)
    locked = {
        r.user_id: r
        for r in Rating.objects.select_for_update()
        .filter(kind=match.kind, user_id__in=user_ids)
        .order_by("user_id")
    }
    rows = [locked[s.user_id] for s in seats]
    after = elo.new_ratings([r.rating for r in rows], [s.rank for s in seats], [r.games for r in rows])
    changes = []
    for row, new in zip(rows, after, strict=True):
        changes.append(RatingChange(match=match, user_id=row.user_id, kind=match.kind,
                                    before=row.rating, after=new, delta=new - row.rating))
        row.rating = new
        row.games += 1
        row.peak = max(row.peak, new)
        row.save(update_fields=["rating", "games", "peak", "updated_at"])
    return RatingChange.objects.bulk_create(changes)
