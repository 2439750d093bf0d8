"""What the play page shows besides its forms (README "The play page"): a card
per game and the live public matches worth watching.

Read-only. The ranked part of each card (the queues and how many wait in
each) is matchmaking's, drawn by its ``{% ranked_choices %}`` tag.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from games import sites, time_controls
from games.engine import get_rules
from games.models import Match, Seat

#: Seconds without any change (a move, a roll, a timeout) after which a live
#: match is taken to be stuck and is not offered to watch.
WATCH_QUIET_SECONDS = 300
#: Live matches the play page lists at most.
WATCH_LIMIT = 12


@dataclass(frozen=True)
class GameCard:
    """One game's card: ``kind``, display ``name``, ``blurb``, static ``picture``
    path (or ""), the ``player_counts`` it allows (2..4) and how many of the
    listed live matches are of this game (``live``)."""

    kind: str
    name: str
    blurb: str
    picture: str
    player_counts: tuple[int, ...]
    live: int = 0


def game_cards(live: list[Match] | None = None) -> list[GameCard]:
    """A card per registered game, in the site's order."""
    counts: dict[str, int] = {}
    for m in live or ():
        counts[m.kind] = counts.get(m.kind, 0) + 1
    cards = []
    for kind in sites.kinds():
        site = sites.get_site(kind)
        cards.append(GameCard(kind, site.name, site.blurb, site.picture,
                              tuple(get_rules(kind).player_counts), counts.get(kind, 0)))
    return cards


def worth_watching(now=None, limit: int = WATCH_LIMIT) -> QuerySet:
    """Live public matches worth watching, most recently changed first, with
    their seats and users: in play (not paused, not waiting to start), changed
    within WATCH_QUIET_SECONDS, and with at least one person still at the table
    who has not missed their last turn. So a solo match whose player walked
    away (timing out turn after turn until the idle limit ends it) and a match
    of computers alone are left out, and so is a turn-based match (days per
    decision: nothing to watch live, though a move was just made)."""
    now = now or timezone.now()
    present = Seat.objects.filter(match=OuterRef("pk"), user__isnull=False,
                                  status=Seat.Status.PLAYING, missed_turns=0)
    return (
        Match.objects.filter(status=Match.Status.ACTIVE, is_public=True,
                             updated_at__gte=now - timedelta(seconds=WATCH_QUIET_SECONDS))
        .filter(Exists(present), time_controls.LIVE_Q)
        .only("public_id", "kind", "rated", "ply_count", "updated_at", "started_at")
        .order_by("-updated_at")
        .prefetch_related("seats__user")[:limit]
    )
