"""The seats' ratings as the match page shows them (README "Ranked play")."""

from __future__ import annotations

from dataclasses import dataclass

from accounts import elo
from accounts.models import Rating
from games.frames.cache import Kept
from games.models import Match, RatingChange, RatingVoid


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


KEPT = 512  # live ranked matches whose seats' ratings a process keeps

_ratings = Kept(KEPT)  # key -> seat_ratings' answer


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
    _ratings.put(key, out)
    return out
