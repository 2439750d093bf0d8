"""What the games app does when an account closes (``accounts.closing``)
and what it adds to an account's data file (``accounts.data``)."""

from __future__ import annotations

from games import exports
from games.actions.leave import leave_match
from games.models import Match, RatingChange, Seat

LIVE = (Match.Status.ACTIVE, Match.Status.PAUSED)


def on_account_closing(sender, user, **kwargs) -> None:
    """``user`` leaves every match it is still playing, live or turn-based,
    by the leave rule (docs/rules.md "Leaving"): the others play on, or win."""
    seats = Seat.objects.filter(user=user, status=Seat.Status.PLAYING, match__status__in=LIVE)
    for public_id in seats.values_list("match__public_id", flat=True):
        leave_match(public_id, user)


def collect_data(sender, user, **kwargs) -> dict:
    """``rating_changes`` (one per rated match) and ``matches``: each ended
    match of ``user`` as its per-match export (``games.exports.match_data``)."""
    changes = RatingChange.objects.filter(user=user).select_related("match").order_by("created")
    ended = (Match.objects.filter(seats__user=user, status__in=(Match.Status.FINISHED, Match.Status.ABORTED))
             .order_by("created_at"))
    return {
        "rating_changes": [
            {"match": c.match.public_id, "game": c.kind, "before": c.before, "after": c.after,
             "delta": c.delta, "at": c.created.isoformat()}
            for c in changes
        ],
        "matches": [exports.match_data(m, prefetched=True)
                    for m in exports.prefetch(ended).iterator(chunk_size=100)],
    }
