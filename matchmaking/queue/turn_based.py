"""The turn-based ranked queues: the only writers of TurnBasedEntry (STYLE habit 3).

A turn-based queue is (game, players, days per decision): a player joins it
from the game's card on the play page and may close the page; pairing runs at
the join and once a minute (Celery beat, ``tasks.turn_based_wave``) with the
pure ``pairing.pair`` and a window that widens by the clock
(``pairing.turn_based_window``: hours, not seconds). A table becomes a rated,
public, turn-based match (``turn_seconds`` = days x 86,400) with the ranked
settings of docs/rules.md "Ranked settings"; the players' ratings are the
same ``Rating`` rows as live play's (one rating per game). Independent of the
live queue: waiting in it, or playing a live match, holds nobody here; only
the per-player limit on turn-based matches does (PARLOUR_TURN_BASED_LIMIT).
docs/features.md "The turn-based ranked queue", docs/decisions.md.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import Count
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import confirmation, languages
from accounts.elo import INITIAL_RATING
from accounts.models import Rating
from games import actions as game_actions
from games import sites, time_controls
from games.models import Match
from matchmaking import together
from matchmaking.models import TurnBasedEntry
from matchmaking.queue import pairing
from matchmaking.queue.actions import (
    QueueError,
    apart_entries,
    can_queue,
    check_not_bot,
    find_queue,
    ranked_options,
)
from notifications import notify

log = logging.getLogger(__name__)
_shuffle = random.SystemRandom().shuffle

#: Days per decision the join form has chosen until the player picks others.
DEFAULT_DAYS = 3


def parse_days(value) -> int:
    """Days per decision from form input: one of TURN_BASED_DAYS; raises QueueError."""
    try:
        days = int(str(value).strip())
    except (TypeError, ValueError):
        days = None
    if days not in time_controls.TURN_BASED_DAYS:
        offered = ", ".join(map(str, time_controls.TURN_BASED_DAYS[:-1]))
        raise QueueError(_("Choose %(days)s or %(last)s days per decision.")
                         % {"days": offered, "last": time_controls.TURN_BASED_DAYS[-1]})
    return days


def _describe(kind: str, players: int, days: int) -> str:
    per_decision = time_controls.label(days * time_controls.DAY)
    return _("%(game)s, %(players)s players, %(control)s a decision") % {
        "game": sites.name(kind), "players": players, "control": per_decision}


def join_turn_based(user, kind, players, days, *, now: datetime | None = None) -> Match | None:
    """Put ``user`` in the turn-based queue (``kind``, ``players``, ``days``)
    and pair it at once. Returns the match that seated them, or None (they
    wait; the entry stays, across restarts, until paired or left).

    Raises QueueError, and nothing changes, for: no such game or player count,
    days not offered, an account that may not queue, already waiting in this
    game's turn-based queue; ``games.actions.TooManyTurnBasedMatches`` at the
    per-player limit of turn-based matches (both ``core.errors.Refused``).
    """
    queue = find_queue(kind, players)
    days = parse_days(days)
    check_not_bot(user)
    if not can_queue(user):
        raise QueueError(_("You cannot join a ranked queue."))
    confirmation.check_confirmed(user)
    now = now or timezone.now()
    waiting = TurnBasedEntry.objects.filter(user=user, kind=queue.kind).first()
    if waiting is not None:
        raise QueueError(_("You are already waiting in the turn-based queue of %(queue)s. "
                           "Leave it first to wait for another.")
                         % {"queue": _describe(waiting.kind, waiting.players, waiting.days)})
    game_actions.check_turn_based_limit([user], you=user)  # TooManyTurnBasedMatches, a Refused
    rating = Rating.objects.filter(user=user, kind=queue.kind).values_list("rating", flat=True).first()
    try:
        with transaction.atomic():
            TurnBasedEntry.objects.create(
                user=user, kind=queue.kind, players=queue.players, days=days,
                rating=rating if rating is not None else INITIAL_RATING, joined_at=now)
    except IntegrityError:  # a second join at the same moment
        raise QueueError(_("You are already waiting in this game's turn-based queue.")) from None
    started = pair_turn_based([(queue.kind, queue.players, days)], now=now)
    return next((m for m in started if m.seats.filter(user_id=user.pk).exists()), None)


def leave_turn_based(user, kind) -> bool:
    """Take ``user`` out of the turn-based queue of game ``kind``. True if an entry went."""
    if user is None or not user.is_authenticated:
        return False
    deleted, _by_model = TurnBasedEntry.objects.filter(user=user, kind=str(kind)).delete()
    return bool(deleted)


def pair_turn_based(only: list[tuple[str, int, int]] | None = None, *,
                    now: datetime | None = None) -> list[Match]:
    """Pair the turn-based queues ``only`` ((kind, players, days) triples;
    default: every one somebody waits in) and start a match per table.
    Returns the started matches. Entries of accounts that may no longer
    queue (banned, deactivated) are dropped; players at the per-player limit
    wait on."""
    now = now or timezone.now()
    if only is None:
        only = list(TurnBasedEntry.objects.values_list("kind", "players", "days").distinct())
    started = []
    for kind, players, days in only:
        with transaction.atomic():
            started += _pair_one(kind, players, days, now)
    return started


def _pair_one(kind: str, players: int, days: int, now: datetime) -> list[Match]:
    # The entries alone are locked (``of``), in id order: the users' rows are
    # claimed later, after the live entries, in ``together.claim``'s one order.
    entries = list(TurnBasedEntry.objects.select_for_update(of=("self",))
                   .filter(kind=kind, players=players, days=days).select_related("user").order_by("pk"))
    gone = [e.pk for e in entries if not can_queue(e.user)]
    if gone:
        TurnBasedEntry.objects.filter(pk__in=gone).delete()
    full = game_actions.busy_users((e.user_id for e in entries), turn_based=True)
    entries = [e for e in entries if e.pk not in gone and e.user_id not in full]
    if len(entries) < players:
        return []
    by_id = {e.pk: e for e in entries}
    tables = pairing.pair(
        [pairing.Waiting(e.pk, e.rating, (now - e.joined_at).total_seconds()) for e in entries],
        players, pairing.turn_based_window, apart_entries(entries),
    )
    started = []
    for table in tables:
        users = [by_id[pk].user_id for pk in table]
        together.claim(users)  # against another path seating them at once; then count again
        if game_actions.busy_users(users, turn_based=True):
            continue
        started.append(_start_table(kind, days, [by_id[pk] for pk in table]))
    return started


def _start_table(kind: str, days: int, entries: list[TurnBasedEntry]) -> Match:
    _shuffle(entries)  # seat order by lot, as in the live queues
    match = game_actions.create_match(
        kind, [game_actions.SeatSpec(user=e.user) for e in entries], rated=True, is_public=True,
        options=ranked_options(kind), turn_seconds=days * time_controls.DAY,
    )
    TurnBasedEntry.objects.filter(pk__in=[e.pk for e in entries]).delete()
    match = game_actions.start_match(match.public_id)
    href, game = reverse("match", args=[match.public_id]), sites.name(kind)
    for e in entries:  # every page of theirs (README "Notifications"), in their language
        with languages.speaking(e.user):
            text = _("Your turn-based ranked %(game)s match is ready (%(control)s a decision)") % {
                "game": game, "control": time_controls.label(match.turn_seconds)}
        notify.notify(e.user_id, "turn_based_found",  # not followed by a live match's page
                      text, href, match=match.public_id, key=f"found:{match.public_id}")
    log.info("paired %s players into turn-based ranked match %s (%s/%s/%sd)",
             len(entries), match.public_id, kind, len(entries), days)
    return match


@dataclass(frozen=True)
class Waiting:
    """One of a player's turn-based entries as the play page shows it:
    ``waited`` (seconds), the rating ``window`` now (points; None: anyone)."""

    entry: TurnBasedEntry
    waited: int
    window: float | None

    @property
    def label(self) -> str:
        return _describe(self.entry.kind, self.entry.players, self.entry.days)

    @property
    def waited_text(self) -> str:
        """The wait in words, to the minute: "5 min", "1 h 35 min", "2 d 3 h"."""
        minutes = self.waited // 60
        days, hours, minutes = minutes // 1440, minutes // 60 % 24, minutes % 60
        if days:
            return _("%(days)s d %(hours)s h") % {"days": days, "hours": hours}
        if hours:
            return _("%(hours)s h %(minutes)s min") % {"hours": hours, "minutes": minutes}
        return _("%(minutes)s min") % {"minutes": minutes}


def waiting_for(user, now: datetime | None = None) -> dict[str, Waiting]:
    """``user``'s turn-based entries by game kind (none for a visitor). One query."""
    if user is None or not user.is_authenticated:
        return {}
    now = now or timezone.now()
    out = {}
    for e in TurnBasedEntry.objects.filter(user=user):
        waited = max(0.0, (now - e.joined_at).total_seconds())
        w = pairing.turn_based_window(waited)
        out[e.kind] = Waiting(e, int(waited), None if w == float("inf") else w)
    return out


def waiting_counts() -> dict[str, list[tuple[int, int, int]]]:
    """How many wait in each turn-based queue: kind -> [(players, days, n)],
    by players then days; a queue nobody waits in is absent. One query."""
    out: dict[str, list[tuple[int, int, int]]] = {}
    rows = (TurnBasedEntry.objects.values("kind", "players", "days").annotate(n=Count("pk"))
            .order_by("kind", "players", "days"))
    for r in rows:
        out.setdefault(r["kind"], []).append((r["players"], r["days"], r["n"]))
    return out
