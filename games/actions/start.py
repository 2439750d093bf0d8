"""Creating a match with its seats, and starting it; who is too busy to be
seated in another (live and turn-based matches apart); the limits on
matches against computers and on turn-based matches one account plays at once."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import signals, sites, time_controls
from games.actions.advance import advance
from games.actions.core import Change, lock
from games.actions.errors import NotAllowed, TooManyComputerMatches, TooManyTurnBasedMatches
from games.engine import fair, get_rules
from games.models import Match, Seat

#: Match statuses during which a seated player is busy: pairing (ranked
#: queues, arenas) never seats them in another match.
BUSY = (Match.Status.WAITING, Match.Status.ACTIVE, Match.Status.PAUSED)


def _of_match(q: Q) -> Q:
    """``q``, a filter on a match's own columns (``time_controls.TURN_BASED_Q``,
    ``LIVE_Q``), as a filter on a seat's match."""
    return Q(*[(f"match__{field}", value) for field, value in q.children],
             _connector=q.connector, _negated=q.negated)


def _playing(user_ids, *, turn_based: bool):
    """The seats of ``user_ids`` still played in matches not ended, of one time
    control: turn-based or live."""
    kind = time_controls.TURN_BASED_Q if turn_based else time_controls.LIVE_Q
    return Seat.objects.filter(_of_match(kind), user_id__in=list(user_ids), match__status__in=BUSY,
                               status=Seat.Status.PLAYING)


def busy_users(user_ids, *, turn_based: bool = False) -> set[int]:
    """Those of ``user_ids`` (user ids) that pairing may not seat in a new
    match of the time control asked for (docs/features.md "Turn-based play"):

    - live (default; ranked queues, arenas): still playing a seat of a live
      match that has not ended, whatever made it (ranked, arena, room,
      challenge, computer). Their turn-based matches do not count: those wait
      days for a move and are played beside live ones.
    - ``turn_based`` (the turn-based ranked queue): seated in as many
      turn-based matches not ended as one player may be
      (``settings.PARLOUR_TURN_BASED_LIMIT``: ``turn_based_full``). Their
      live matches do not count.

    A seat its player left or idled out of holds nobody. One query."""
    if turn_based:
        return turn_based_full(user_ids)
    return set(_playing(user_ids, turn_based=False).values_list("user_id", flat=True))


def playing_matches(user_id: int) -> list[str]:
    """The public ids of the live matches not ended in which ``user_id``
    still plays a seat (``busy_users``' matches of one user). One query."""
    return list(_playing([user_id], turn_based=False).values_list("match__public_id", flat=True))


def busy_matches(user_ids) -> dict[int, Match]:
    """For each of ``user_ids`` that ``busy_users`` counts busy for live
    pairing, the live match that holds them (their earliest seat's): user id
    -> Match. One query."""
    held: dict[int, Match] = {}
    seats = _playing(user_ids, turn_based=False).select_related("match").order_by("joined_at", "pk")
    for seat in seats:
        held.setdefault(seat.user_id, seat.match)
    return held


def turn_based_counts(user_ids) -> dict[int, int]:
    """How many turn-based matches not ended each of ``user_ids`` still plays
    a seat of: user id -> count (0 for none). One query."""
    ids = [int(u) for u in user_ids]
    counts = dict(_playing(ids, turn_based=True).order_by().values("user_id")
                  .annotate(n=Count("pk")).values_list("user_id", "n"))
    return {u: counts.get(u, 0) for u in ids}


def turn_based_count(user_id: int) -> int:
    """How many turn-based matches not ended ``user_id`` still plays a seat of. One query."""
    return turn_based_counts([user_id])[int(user_id)]


def turn_based_full(user_ids) -> set[int]:
    """Those of ``user_ids`` seated in PARLOUR_TURN_BASED_LIMIT or more
    turn-based matches not ended: one more would pass the limit. One query."""
    limit = settings.PARLOUR_TURN_BASED_LIMIT
    return {u for u, n in turn_based_counts(user_ids).items() if n >= limit}


def check_turn_based_limit(users, *, you=None) -> None:
    """Refuse (TooManyTurnBasedMatches, naming the limit) a new turn-based
    match for ``users`` (User rows) when one of them is seated in
    PARLOUR_TURN_BASED_LIMIT turn-based matches already; ``you`` (one of
    them, or None) is the one acting, told "You". Call it inside the
    transaction that seats them, after ``matchmaking.together.claim`` has
    locked them, so two starts at once count each other. One query."""
    users = list(users)
    counts = turn_based_counts(u.pk for u in users)
    limit = settings.PARLOUR_TURN_BASED_LIMIT
    for user in users:
        playing = counts[user.pk]
        if playing < limit:
            continue
        if you is not None and user.pk == you.pk:
            message = ngettext(
                "You are in %(playing)s turn-based match; one player may be in at most %(limit)s at once. "
                "Finish or leave one of them (Your matches) to start another.",
                "You are in %(playing)s turn-based matches; one player may be in at most %(limit)s at once. "
                "Finish or leave one of them (Your matches) to start another.", playing)
        else:
            message = ngettext(
                "%(name)s is in %(playing)s turn-based match; one player may be in at most %(limit)s "
                "at once. The match can start when one of them ends.",
                "%(name)s is in %(playing)s turn-based matches; one player may be in at most %(limit)s "
                "at once. The match can start when one of them ends.", playing)
        raise TooManyTurnBasedMatches(message % {"name": user.username, "playing": playing, "limit": limit})


def computer_matches(user_id: int) -> int:
    """How many matches against computers ``user_id`` plays now: matches that
    have not ended with a computer seat, their own seat not left. One query."""
    computer = Seat.objects.filter(match_id=OuterRef("match_id")).exclude(computer_level="")
    return (Seat.objects.filter(user_id=user_id, status=Seat.Status.PLAYING, match__status__in=BUSY)
            .filter(Exists(computer)).count())


def check_computer_matches(user) -> None:
    """Refuse (TooManyComputerMatches) a new match against computers for
    ``user`` when they already play PARLOUR_COMPUTER_MATCHES_PER_USER of them
    (README "Decisions": one account's computer moves stay few beside
    everyone else's). Call it inside the transaction that creates the match:
    it locks ``user``'s row until the commit (PostgreSQL; SQLite's IMMEDIATE
    transactions serialise writers), so two starts at once count each other."""
    list(get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True))
    limit = settings.PARLOUR_COMPUTER_MATCHES_PER_USER
    playing = computer_matches(user.pk)
    if playing >= limit:
        raise TooManyComputerMatches(ngettext(
            "You are playing %(playing)s match against computers already, the most one player may play "
            "at once (%(limit)s). Finish or leave one of them (Your matches) to start another.",
            "You are playing %(playing)s matches against computers already, the most one player may play "
            "at once (%(limit)s). Finish or leave one of them (Your matches) to start another.",
            playing) % {"playing": playing, "limit": limit})


def start_computer_match(user, kind: str, levels: list[str], *, computer_speed: str = "normal",
                         theme: str = "plain", turn_seconds: int | None = None) -> Match:
    """A match of ``user`` (seat 0) against computers of ``levels``, started at
    once (the play page, the API). ``turn_seconds``: None for the game's own.
    Raises TooManyComputerMatches, and nothing is created."""
    with transaction.atomic():
        check_computer_matches(user)
        specs = [SeatSpec(user=user)] + [SeatSpec(computer_level=level) for level in levels]
        match = create_match(kind, specs, host=user, computer_speed=computer_speed, theme=theme,
                             turn_seconds=turn_seconds)
        return start_match(match.public_id)


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat: a user, or a computer level ("easy", "normal", "strong").
    ``since``: when that user took their seat (a room's join time; default:
    the match's creation), which orders "longest-seated" (docs/rules.md "Pauses")."""

    user: object | None = None
    computer_level: str = ""
    since: object | None = None

    def __post_init__(self):
        if (self.user is None) == (not self.computer_level):
            raise ValueError("a seat is either a user or a computer level")


def create_match(
    kind: str,
    seats: list[SeatSpec],
    *,
    options: dict | None = None,
    host=None,
    rated: bool = False,
    is_public: bool = True,
    computer_speed: str = "normal",
    turn_seconds: int | None = None,
    idle_limit: int = 3,
    theme: str = "plain",
    state: dict | None = None,
    seed: bytes | None = None,
    event: str = "",
    event_url: str = "",
) -> Match:
    """A new match in status ``waiting`` with its seats; not started.

    ``state`` (an engine ``dump``) and ``seed`` (32 bytes) are for tests only
    (see ``tests/factories.py``); normally a fresh match and a fresh secret
    seed. ``event`` and ``event_url``: the competition it belongs to (an
    arena's name and page path), shown in its history, replay and export.
    Raises the engine's ``InvalidOptionsError`` (a ValueError) for a bad
    player count or options.
    """
    rules = get_rules(kind)
    if state is None:
        engine_state = rules.new_match(len(seats), options)
    else:
        engine_state = rules.load(state)
    dumped = rules.dump(engine_state)
    seed = seed if seed is not None else fair.new_seed()
    colours = [s["colour"] for s in rules.view(engine_state, None)["seats"]]
    if len(colours) != len(seats):
        raise ValueError(f"{len(seats)} seats for a {len(colours)}-player state")
    with transaction.atomic():
        match = Match.objects.create(
            kind=kind,
            options=dict(options or {}),
            host=host,
            rated=rated,
            is_public=is_public,
            computer_speed=computer_speed,
            turn_seconds=turn_seconds or sites.turn_seconds(kind),
            idle_limit=idle_limit,
            theme=theme,
            start_state=dumped,
            state=dumped,
            seed=seed.hex(),
            seed_hash=fair.commitment(seed),
            event=event,
            event_url=event_url,
        )
        Seat.objects.bulk_create(
            Seat(
                match=match,
                index=i,
                colour=colours[i],
                user=spec.user,
                computer_level=spec.computer_level,
            )
            for i, spec in enumerate(seats)
        )
        for i, spec in enumerate(seats):
            if spec.since is not None:  # auto_now_add ignores a given value
                Seat.objects.filter(match=match, index=i).update(joined_at=spec.since)
    return match


def start_match(public_id: str) -> Match:
    """Start a waiting match: draw the opening chance steps, set the first deadline.
    Raises MatchNotFound, or NotAllowed when it has already started."""
    with transaction.atomic():
        match = lock(public_id)
        if match.status != Match.Status.WAITING:
            raise NotAllowed(_("This match has already started."))
        change = Change(match)
        match.status = Match.Status.ACTIVE
        match.started_at = timezone.now()
        advance(change)
        change.save()
        signals.match_started.send(sender=Match, match=change.match, seats=list(change.seats.values()))
    return change.match
