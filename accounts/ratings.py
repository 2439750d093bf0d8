"""The only writer of ``Rating`` rows: a match's results applied, and taken
back (README "Ranked play"; the Elo math is ``accounts.elo``).

Both run inside the caller's transaction (the one that finishes the match,
or the moderator's void) with the players' rows locked in user-id order
(``SELECT ... FOR UPDATE`` on PostgreSQL; SQLite's IMMEDIATE transactions
serialise writers), so two matches of one user that end together both
count, one after the other. Ratings are rating points, unrounded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from accounts import elo
from accounts.models import Rating


@dataclass(frozen=True)
class RatingStep:
    """What one write did to one player's row: rating points before and
    after, rated games before and after, peak before and after."""

    user_id: int
    rating_before: float
    rating_after: float
    games_before: int
    games_after: int
    peak_before: float
    peak_after: float

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before


def _locked(kind: str, user_ids: Sequence[int]) -> dict[int, Rating]:
    """The players' rows in ``kind`` (made first when missing), locked in
    user-id order."""
    ids = sorted(set(user_ids))
    for user_id in ids:  # a row must exist before it can be locked
        Rating.objects.get_or_create(user_id=user_id, kind=kind)
    return {
        r.user_id: r
        for r in Rating.objects.select_for_update().filter(kind=kind, user_id__in=ids).order_by("user_id")
    }


def _write(row: Rating, rating: float, games: int, peak: float) -> RatingStep:
    step = RatingStep(row.user_id, row.rating, rating, row.games, games, row.peak, peak)
    row.rating, row.games, row.peak = rating, games, peak
    row.save(update_fields=["rating", "games", "peak", "updated_at"])
    return step


def apply_results(kind: str, user_ids: Sequence[int], ranks: Sequence[int]) -> list[RatingStep]:
    """Rate one finished match of ``kind``: ``user_ids[i]`` finished at
    ``ranks[i]`` (1 = first; shared ranks allowed). Each player's rating
    moves by the Elo deltas (``accounts.elo.new_ratings``, floor 100), their
    rated games go up by one and their peak follows. Returns one step per
    player, in the order given. Raises ValueError for mismatched lengths."""
    if len(user_ids) != len(ranks) or len(set(user_ids)) != len(user_ids):
        raise ValueError("one rank per distinct player")
    rows = _locked(kind, user_ids)
    ordered = [rows[u] for u in user_ids]
    after = elo.new_ratings([r.rating for r in ordered], list(ranks), [r.games for r in ordered])
    return [_write(row, new, row.games + 1, max(row.peak, new))
            for row, new in zip(ordered, after, strict=True)]


def take_back(kind: str, deltas: dict[int, float], peak: Callable[[int, float], float]) -> list[RatingStep]:
    """Undo one rated match of ``kind`` for each player in ``deltas``
    (user id -> the delta that match recorded, rating points): the delta is
    subtracted from the *current* rating (floor 100), one rated game comes
    off, and the peak becomes ``peak(user_id, new_rating)`` (the caller
    replays the remaining history). Returns one step per player, by user id."""
    rows = _locked(kind, list(deltas))
    steps = []
    for user_id in sorted(deltas):
        row = rows[user_id]
        rating = max(elo.RATING_FLOOR, row.rating - deltas[user_id])
        steps.append(_write(row, rating, max(0, row.games - 1), peak(user_id, rating)))
    return steps
