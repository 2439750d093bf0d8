"""Ranked queues: the only writers of QueueEntry (STYLE habit 3).

``join_queue`` / ``leave_queue`` / ``pair_queues`` (README "Ranked play").
Pairing runs on every join and in waves (Celery beat, ``tasks.queue_wave``);
it seats players with the pure ``pairing.pair`` and creates each ranked match
through ``games.actions`` (rated, public, the ranked settings of docs/rules.md
"Ranked settings": the game's default options, turn and idle limits).
Pushes leave after commit, from ``push.py``. Private rooms have their own
actions in ``matchmaking/rooms/actions.py``.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts import blocks, confirmation, languages
from accounts.elo import INITIAL_RATING
from accounts.models import Rating
from core.errors import Refused
from games import actions as game_actions
from games import sites
from games.engine import get_rules
from games.models import Match
from games.rating import every_seat_moved
from matchmaking import together
from matchmaking.models import QueueEntry
from matchmaking.queue import pairing, push
from notifications import notify

log = logging.getLogger(__name__)
_shuffle = random.SystemRandom().shuffle


class QueueError(Refused):
    """A refused queue action; ``message`` is safe to show. Nothing changed."""


@dataclass(frozen=True)
class Queue:
    """A ranked queue: game ``kind`` ("ludo") and ``players`` per table (2..4)."""

    kind: str
    players: int

    @property
    def label(self) -> str:
        return f"{sites.name(self.kind)}, {self.players} players"

    @property
    def key(self) -> str:
        return f"{self.kind}-{self.players}"


def queues() -> list[Queue]:
    """Every ranked queue: each registered game with each player count it allows."""
    return [Queue(kind, n) for kind in sites.kinds() for n in get_rules(kind).player_counts]


def find_queue(kind, players) -> Queue:
    """The queue named by form or URL input; raises QueueError for anything else."""
    try:
        queue = Queue(str(kind), int(players))
    except (TypeError, ValueError):
        raise QueueError(_("Choose a game and a number of players.")) from None
    if queue not in queues():
        raise QueueError(_("There is no such ranked queue."))
    return queue


#: Why a bot account is refused a ranked queue (docs/api.md "Bot accounts").
BOT_REFUSAL = gettext_noop("A bot account never joins a ranked queue: it plays people through challenges "
                           "and private rooms.")  # translated where raised


def can_queue(user) -> bool:
    """May ``user`` join a ranked queue (or an arena)? Signed in, active, not
    banned (README "Moderation") and not a bot account (docs/api.md "Bot accounts")."""
    return bool(user is not None and user.is_authenticated and user.is_active
                and not getattr(user, "is_banned", False) and not getattr(user, "is_bot", False))


def check_not_bot(user, refusal: str = BOT_REFUSAL) -> None:
    """Raises QueueError with ``refusal`` for a bot account: its own words,
    not "you cannot join" (docs/api.md "Bot accounts")."""
    if getattr(user, "is_bot", False):
        raise QueueError(_(refusal), "bot_account")


def ranked_options(kind: str) -> dict:
    """The rule options of a ranked match: the game's defaults (docs/rules.md "Ranked settings")."""
    return dict(get_rules(kind).default_options)


def join_queue(user, kind, players, *, now: datetime | None = None) -> QueueEntry:
    """Put ``user`` in the (``kind``, ``players``) queue, out of any other
    (one queue at a time), then pair that queue at once.

    Returns the entry; its ``match`` is set if pairing seated it straight
    away. Raises QueueError (not allowed, no such queue); nothing changes then.
    """
    queue = find_queue(kind, players)
    check_not_bot(user)
    if not can_queue(user):
        raise QueueError(_("You cannot join a ranked queue."))
    confirmation.check_confirmed(user)
    now = now or timezone.now()
    with transaction.atomic():
        rating = (
            Rating.objects.filter(user=user, kind=queue.kind).values_list("rating", flat=True).first()
        )
        QueueEntry.objects.filter(user=user).delete()
        entry = QueueEntry.objects.create(
            user=user, kind=queue.kind, players=queue.players,
            rating=rating if rating is not None else INITIAL_RATING, joined_at=now, seen_at=now,
        )
    pair_queues([queue], now=now)
    entry.refresh_from_db()
    return entry


def leave_queue(user, entry_id: int | None = None) -> bool:
    """Take ``user`` out of their queue (only entry ``entry_id`` if given: a
    closing socket must not remove a newer entry). True if an entry went."""
    if user is None or not user.is_authenticated:
        return False
    entries = QueueEntry.objects.filter(user=user, match__isnull=True)
    if entry_id is not None:
        entries = entries.filter(pk=entry_id)
    deleted, _by_model = entries.delete()
    return bool(deleted)


def leave_held_match(user, public_id: str) -> Match | None:
    """The queue panel's "Leave it": ``user`` leaves ``public_id``, an unfinished
    match of theirs that keeps them from being paired (``QueueStatus.held_by``),
    then their queue is paired at once. Returns the ranked match that seated
    them, or None (still waiting). Raises QueueError when ``public_id`` is no
    match they are still playing (one answer for every other id), and what
    ``games.actions.leave_match`` raises; nothing changes then."""
    if not user.is_authenticated or str(public_id) not in game_actions.playing_matches(user.pk):
        raise QueueError(_("That is not a match you are still playing."))
    game_actions.leave_match(str(public_id), user)
    entry = QueueEntry.objects.filter(user=user, match__isnull=True).first()
    if entry is None:
        return None
    pair_queues([find_queue(entry.kind, entry.players)])
    entry.refresh_from_db()
    return entry.match


def mark_seen(user, now: datetime | None = None) -> QueueEntry | None:
    """The player's queue page is still there (socket heartbeat or reload):
    returns their entry (waiting or paired), or None."""
    if user is None or not user.is_authenticated:
        return None
    now = now or timezone.now()
    QueueEntry.objects.filter(user=user, match__isnull=True).update(seen_at=now)
    return QueueEntry.objects.filter(user=user).select_related("match").first()


def socket_seen(user, now: datetime | None = None) -> tuple[QueueEntry | None, bool]:
    """A queue socket of ``user`` is open (its connect or heartbeat): their
    waiting entry is seen and present again. Returns (their entry or None,
    whether it was away: its socket had dropped, so its queue should be
    paired now)."""
    if user is None or not user.is_authenticated:
        return None, False
    now = now or timezone.now()
    waiting = QueueEntry.objects.filter(user=user, match__isnull=True)
    before = waiting.values("away_since", "socket_seen_at").first()
    was_away = before is not None and not present([QueueEntry(**before)], now)
    waiting.update(socket_seen_at=now, away_since=None)
    return mark_seen(user), was_away


def mark_away(user, entry_id: int, now: datetime | None = None) -> bool:
    """The queue socket of entry ``entry_id`` dropped abnormally (a network
    blip, a server restart): the entry stays, and expires after
    PARLOUR_QUEUE_STALE_SECONDS like any whose page vanished, but pairing
    skips it until a socket is back (README "Ranked play"). True if marked."""
    now = now or timezone.now()
    return bool(QueueEntry.objects.filter(user=user, pk=entry_id, match__isnull=True,
                                          away_since__isnull=True).update(away_since=now))


def present(entries: list[QueueEntry], now: datetime) -> list[QueueEntry]:
    """The entries pairing may seat: none whose socket dropped (``away_since``)
    and none whose socket has gone silent for PARLOUR_QUEUE_PRESENT_SECONDS
    (its server process died without a close). An entry that never had a
    socket (a page without JavaScript, which reloads itself) counts as present."""
    silent = now - timedelta(seconds=settings.PARLOUR_QUEUE_PRESENT_SECONDS)
    return [e for e in entries if e.away_since is None
            and (e.socket_seen_at is None or e.socket_seen_at >= silent)]


def expire_stale(now: datetime | None = None) -> int:
    """Remove waiting entries whose page vanished (no sign for
    PARLOUR_QUEUE_STALE_SECONDS) and paired entries older than
    PARLOUR_QUEUE_PAIRED_KEEP_SECONDS. Returns how many went."""
    now = now or timezone.now()
    stale = QueueEntry.objects.filter(
        match__isnull=True, seen_at__lt=now - timedelta(seconds=settings.PARLOUR_QUEUE_STALE_SECONDS)
    ).delete()[0]
    done = QueueEntry.objects.filter(
        match__isnull=False,
        seen_at__lt=now - timedelta(seconds=settings.PARLOUR_QUEUE_PAIRED_KEEP_SECONDS),
    ).delete()[0]
    return stale + done


def pair_queues(only: list[Queue] | None = None, *, now: datetime | None = None) -> list[Match]:
    """Pair the waiting players of ``only`` (default: every queue) and start
    a ranked match per table. Returns the started matches. Each paired player
    is sent to their match after commit (``push.queue_paired``).
    """
    now = now or timezone.now()
    started = []
    for queue in only or queues():
        with transaction.atomic():
            entries = list(
                QueueEntry.objects.select_for_update()
                .filter(kind=queue.kind, players=queue.players, match__isnull=True)
                .exclude(user__is_bot=True)  # became a bot while waiting: never paired
                .select_related("user")
            )
            entries = present(entries, now)
            # Someone still seated in a match that has not ended (an arena's, a
            # room's) waits on: never in two matches at once.
            busy = game_actions.busy_users(e.user_id for e in entries)
            entries = [e for e in entries if e.user_id not in busy]
            if len(entries) < queue.players:
                continue
            by_id = {e.pk: e for e in entries}
            tables = pairing.pair(
                [pairing.Waiting(e.pk, e.rating, (now - e.joined_at).total_seconds()) for e in entries],
                queue.players, apart=apart_entries(entries),
            )
            for table in tables:
                users = [by_id[pk].user_id for pk in table]
                together.claim(users)  # against an arena pairing or a challenge seating them at once
                if game_actions.busy_users(users):
                    continue
                started.append(_start_table(queue, [by_id[pk] for pk in table]))
    return started


def apart_entries(entries) -> list[tuple[int, int]]:
    """The pairs of queue entries (ids) never seated together: their players
    are apart by a block, either way (``accounts.blocks.apart``: one query
    for the whole queue, none when fewer than two wait)."""
    entry_of = {}
    for e in entries:
        entry_of.setdefault(e.user_id, []).append(e.pk)
    return [(a, b) for x, y in map(tuple, blocks.apart(entry_of))
            for a in entry_of[x] for b in entry_of[y]]


def _start_table(queue: Queue, entries: list[QueueEntry]) -> Match:
    _shuffle(entries)  # seat order (colours) by lot; the start is drawn fairly anyway
    match = game_actions.create_match(
        queue.kind,
        [game_actions.SeatSpec(user=e.user) for e in entries],
        rated=True,
        is_public=True,
        options=ranked_options(queue.kind),
    )
    QueueEntry.objects.filter(pk__in=[e.pk for e in entries]).update(match=match, seen_at=timezone.now())
    match = game_actions.start_match(match.public_id)
    user_ids, public_id = [e.user_id for e in entries], match.public_id
    transaction.on_commit(lambda: push.queue_paired(user_ids, public_id))
    href = reverse("match", args=[public_id])
    for e in entries:  # every page of theirs, not only the queue's (README "Notifications")
        with languages.speaking(e.user):
            text = _("Your ranked %(game)s match is ready") % {"game": sites.name(queue.kind)}
        notify.notify(e.user_id, "match_found", text, href, match=public_id, key=f"found:{public_id}")
    log.info("paired %s players into ranked match %s (%s)", len(entries), public_id, queue.key)
    return match


@dataclass(frozen=True)
class QueueStatus:
    """What a waiting player's panel shows: seconds waited, current window
    (rating points), how many in that queue pairing could seat now (them
    included when they can be), and ``held_by``: the unfinished match that
    keeps them from being paired (None when nothing does)."""

    entry: QueueEntry
    waited: int
    window: int
    waiting: int
    held_by: Match | None = None

    @property
    def held_leave(self) -> str | None:
        """What leaving ``held_by`` does, as its Leave button says: "abort" (a rated
        match before every seat has moved: nobody is rated), "loss" (later), None
        (an unrated match). One query for a rated one (docs/rules.md "Leaving")."""
        if self.held_by is None or not self.held_by.rated:
            return None
        return "loss" if every_seat_moved(self.held_by) else "abort"


def _pairable_counts(entries: list[QueueEntry], busy: set[int], now: datetime) -> dict[tuple[str, int], int]:
    """(kind, players) -> how many of ``entries`` pairing could seat now: present
    (their page is there) and not ``busy`` (user ids held by an unfinished match)."""
    counts: dict[tuple[str, int], int] = {}
    for e in present(entries, now):
        if e.user_id not in busy:
            counts[(e.kind, e.players)] = counts.get((e.kind, e.players), 0) + 1
    return counts


def queue_status(entry: QueueEntry, now: datetime | None = None) -> QueueStatus:
    """The panel numbers for one waiting ``entry`` (three queries)."""
    now = now or timezone.now()
    entries = list(QueueEntry.objects.filter(kind=entry.kind, players=entry.players, match__isnull=True))
    held = game_actions.busy_matches(e.user_id for e in entries)
    waiting = _pairable_counts(entries, set(held), now).get((entry.kind, entry.players), 0)
    return _status(entry, now, waiting, held.get(entry.user_id))


def _status(entry: QueueEntry, now: datetime, waiting: int, held_by: Match | None) -> QueueStatus:
    waited = max(0.0, (now - entry.joined_at).total_seconds())
    return QueueStatus(entry, int(waited), int(pairing.window(waited)), waiting, held_by)


def waiting_statuses(now: datetime | None = None) -> list[QueueStatus]:
    """Every waiting entry's panel numbers (for the wave's live update). Two queries."""
    now = now or timezone.now()
    # Each entry's user too: its frames are rendered in the player's language (push.queue_statuses).
    entries = list(QueueEntry.objects.filter(match__isnull=True).select_related("user"))
    held = game_actions.busy_matches(e.user_id for e in entries)
    counts = _pairable_counts(entries, set(held), now)
    return [_status(e, now, counts.get((e.kind, e.players), 0), held.get(e.user_id)) for e in entries]


def waiting_counts(now: datetime | None = None) -> dict[str, int]:
    """How many players pairing could seat in each queue now, by ``Queue.key``
    ("ludo-2"): present, and held by no unfinished match; a queue with none is
    absent. Two queries."""
    now = now or timezone.now()
    entries = list(QueueEntry.objects.filter(match__isnull=True)
                   .only("kind", "players", "user_id", "away_since", "socket_seen_at"))
    counts = _pairable_counts(entries, game_actions.busy_users(e.user_id for e in entries), now)
    return {f"{kind}-{players}": n for (kind, players), n in counts.items()}
