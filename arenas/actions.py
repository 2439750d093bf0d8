"""Arenas: the only writers of the arena rows (STYLE habit 3; README "Arenas").

- ``create_due``: each active schedule's next arena, made ahead of its start.
- ``join`` / ``withdraw`` / ``pause`` / ``resume``: a player's entry.
- ``pair_arena``: seats the free players of a running arena with the pure
  ``arenas.pairing.pair`` and starts a match per table through
  ``games.actions`` (human-only, public, the arena's turn time; rated as a
  ranked match when the arena is, once enough joined, and while the pair has
  not met too often). Runs on every join and match end and in the wave.
- ``on_match_ended``: the receiver of ``games.signals.match_ended``, inside
  the transaction that ends the match: the results and the points commit with
  the match's result, once (the ArenaMatch row is locked and marked).
- ``close_due``: a running arena past its end is closed (no more pairing);
  once its last match has ended it is finished and its podium final.
- ``disqualify`` and ``void_match_results``: called by ``moderation.actions``.

Pushes leave after commit, from ``arenas.push``; Celery tasks are sent by name
(``arenas.tasks``).
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Count
from django.urls import reverse
from django.utils import timezone

from accounts.elo import INITIAL_RATING
from accounts.models import Rating
from arenas import pairing, push, scoring, standings
from arenas.models import Arena, ArenaMatch, ArenaPlayer, ArenaResult, ArenaSchedule
from core import tasks
from games import actions as game_actions
from games import sites
from games.errors import Refused
from games.models import Match, Move, Seat
from matchmaking import together
from matchmaking.queue import actions as queue_actions
from notifications import notify

log = logging.getLogger(__name__)
_shuffle = random.SystemRandom().shuffle

#: The Celery task ``pair_arena`` runs in (sent after a match end or a join).
PAIR_TASK = "arenas.tasks.pair_arena"


class ArenaError(Refused):
    """A refused arena action; ``message`` is safe to show. Nothing changed."""


# -- schedules and phases ------------------------------------------------------


def next_starts(schedule: ArenaSchedule, now: datetime, ahead: timedelta) -> list[datetime]:
    """The starts of ``schedule`` whose arena should exist at ``now``: the one
    running now (if any) and those starting within ``ahead``. Aware datetimes."""
    step = timedelta(minutes=schedule.every_minutes)
    if now < schedule.first_start:
        first = schedule.first_start
    else:
        periods = (now - schedule.first_start) // step
        first = schedule.first_start + periods * step
        if first + timedelta(minutes=schedule.minutes) <= now:
            first += step  # the latest one is over
    starts = []
    at = first
    while at <= now + ahead and len(starts) < 48:
        starts.append(at)
        at += step
    return starts


def create_due(now: datetime | None = None) -> list[Arena]:
    """Create each active schedule's arenas that should exist now and do not
    (README "Arenas": announced PARLOUR_ARENA_ANNOUNCE_MINUTES ahead). Returns
    the new ones. Idempotent: a unique (schedule, start) constraint."""
    now = now or timezone.now()
    ahead = timedelta(minutes=settings.PARLOUR_ARENA_ANNOUNCE_MINUTES)
    made = []
    for schedule in ArenaSchedule.objects.filter(active=True):
        for start in next_starts(schedule, now, ahead):
            arena, created = Arena.objects.get_or_create(
                schedule=schedule, starts_at=start,
                defaults={f: getattr(schedule, f) for f in (
                    "name", "kind", "seats", "turn_seconds", "minutes", "rated", "rated_from_players",
                    "rated_meetings", "max_players")},
            )
            if created:
                made.append(arena)
    return made


def open_due(now: datetime | None = None) -> list[int]:
    """Mark every arena whose start has come as opened and push its new
    header to its pages (from "Starts at …" to running), once each. Returns
    the ids opened."""
    now = now or timezone.now()
    opened = []
    due = Arena.objects.filter(opened_at__isnull=True, closed_at__isnull=True, starts_at__lte=now)
    for arena_id in due.values_list("pk", flat=True):
        if Arena.objects.filter(pk=arena_id, opened_at__isnull=True).update(opened_at=now):
            opened.append(arena_id)
            transaction.on_commit(lambda a=arena_id: push.arena_changed(a))
    return opened


def close_due(now: datetime | None = None) -> list[Arena]:
    """Close every running arena whose end has come (no pairing after this);
    one with no match still running is finished at once. Returns those closed."""
    now = now or timezone.now()
    closed = []
    for arena_id in Arena.objects.filter(closed_at__isnull=True).values_list("pk", flat=True):
        with transaction.atomic():
            arena = Arena.objects.select_for_update().get(pk=arena_id)
            if arena.closed_at is not None or arena.ends_at > now:
                continue
            arena.closed_at = now
            fields = ["closed_at"]
            if not arena.matches.filter(scored=False).exists():
                arena.finished_at = now
                fields.append("finished_at")
            arena.save(update_fields=fields)
            write_final_ranks(arena)
            transaction.on_commit(lambda a=arena.pk: push.arena_changed(a))
            closed.append(arena)
    return closed


def finish_if_done(arena_id: int, now: datetime | None = None) -> bool:
    """A closed arena whose matches have all ended is finished (podium final).
    True if it was finished now."""
    now = now or timezone.now()
    done = (Arena.objects.filter(pk=arena_id, closed_at__isnull=False, finished_at__isnull=True)
            .exclude(matches__scored=False).update(finished_at=now))
    if done:
        write_final_ranks(Arena.objects.get(pk=arena_id))
        transaction.on_commit(lambda: push.arena_changed(arena_id))
    return bool(done)


def write_final_ranks(arena: Arena) -> None:
    """Store each player's place (``ArenaPlayer.final_rank``, the standings
    rank; None when disqualified) once ``arena`` has finished, for their
    profiles; again after a disqualification or a void changes the order.
    Nothing for an arena not finished."""
    if arena.finished_at is None:
        return
    changed = []
    for row in standings.rows(arena):
        if row.player.final_rank != row.rank:
            row.player.final_rank = row.rank
            changed.append(row.player)
    ArenaPlayer.objects.bulk_update(changed, ["final_rank"], batch_size=500)


# -- a player's entry -----------------------------------------------------------


def _rating(user, kind: str) -> float:
    rating = Rating.objects.filter(user=user, kind=kind).values_list("rating", flat=True).first()
    return rating if rating is not None else INITIAL_RATING


def find_arena(arena_id) -> Arena:
    """The arena named by URL or form input; raises ArenaError for anything else."""
    try:
        pk = int(arena_id)
    except (TypeError, ValueError):
        raise ArenaError("There is no such arena.") from None
    arena = Arena.objects.filter(pk=pk).first()
    if arena is None:
        raise ArenaError("There is no such arena.")
    return arena


def join(user, arena_id, *, now: datetime | None = None) -> ArenaPlayer:
    """Enter ``user`` in the arena (before or while it runs; a player who
    withdrew comes back with their points). Raises ArenaError: not allowed
    (signed out, banned), no such arena, closed, full, already in it,
    disqualified. Nothing changes then. A running arena is paired at once."""
    now = now or timezone.now()
    if not queue_actions.can_queue(user):
        raise ArenaError("You cannot join an arena.")
    with transaction.atomic():
        arena = find_arena(arena_id)
        arena = Arena.objects.select_for_update().get(pk=arena.pk)
        if arena.phase(now) in ("closing", "finished") or arena.ends_at <= now:
            raise ArenaError("This arena has ended.")
        player = ArenaPlayer.objects.filter(arena=arena, user=user).first()
        if player is not None:
            if player.status == ArenaPlayer.Status.DISQUALIFIED:
                raise ArenaError("You were disqualified from this arena.")
            if player.status != ArenaPlayer.Status.WITHDRAWN:
                raise ArenaError("You are already in this arena.")
            player.status, player.paused_reason = ArenaPlayer.Status.ACTIVE, ""
            player.save(update_fields=["status", "paused_reason"])
        else:
            if arena.max_players and arena.players.count() >= arena.max_players:
                raise ArenaError("This arena is full.")
            player = ArenaPlayer.objects.create(arena=arena, user=user, joined_at=now, free_since=now,
                                                rating=_rating(user, arena.kind))
        _after_change(arena, pair=True, players=[player], header=True)
    return player


def _entry(user, arena_id) -> ArenaPlayer:
    if user is None or not user.is_authenticated:
        raise ArenaError("Sign in first.")
    arena = find_arena(arena_id)
    player = ArenaPlayer.objects.select_for_update().filter(arena=arena, user=user).first()
    if player is None:
        raise ArenaError("You are not in this arena.")
    return player


def _require_not_over(arena: Arena) -> None:
    """An entry changes only while the arena takes entries: after its close
    the standings stay as they ended (a finished row never turns "withdrawn")."""
    if arena.phase(timezone.now()) in ("closing", "finished"):
        raise ArenaError("This arena has ended.")


def withdraw(user, arena_id) -> ArenaPlayer:
    """Leave the arena's pool: not paired again (a match being played goes
    on and counts when it ends). Points stay; joining again comes back."""
    with transaction.atomic():
        player = _entry(user, arena_id)
        if player.status == ArenaPlayer.Status.DISQUALIFIED:
            raise ArenaError("You were disqualified from this arena.")
        _require_not_over(player.arena)
        player.status, player.paused_reason = ArenaPlayer.Status.WITHDRAWN, ""
        player.save(update_fields=["status", "paused_reason"])
        _after_change(player.arena, players=[player])
    return player


def pause(user, arena_id, reason: str = "") -> ArenaPlayer:
    """Not paired again until ``resume``; a match being played goes on."""
    with transaction.atomic():
        player = _entry(user, arena_id)
        if player.status != ArenaPlayer.Status.ACTIVE:
            raise ArenaError("You are not playing in this arena now.")
        _require_not_over(player.arena)
        player.status, player.paused_reason = ArenaPlayer.Status.PAUSED, reason[:80]
        player.save(update_fields=["status", "paused_reason"])
        _after_change(player.arena, players=[player])
    return player


def resume(user, arena_id) -> ArenaPlayer:
    """Back in the pool after a pause (one's own, or after a leave or an idle-out)."""
    with transaction.atomic():
        player = _entry(user, arena_id)
        if player.status != ArenaPlayer.Status.PAUSED:
            raise ArenaError("You are not paused in this arena.")
        _require_not_over(player.arena)
        player.status, player.paused_reason = ArenaPlayer.Status.ACTIVE, ""
        player.save(update_fields=["status", "paused_reason"])
        _after_change(player.arena, pair=True, players=[player])
    return player


def _after_change(arena: Arena, *, players, pair: bool = False, header: bool = False) -> None:
    """After commit: push the rows of ``players`` (and the header: its count
    of players), and pair the arena when ``pair`` and it runs."""
    arena_id = arena.pk
    ids = [p.pk for p in players]
    transaction.on_commit(lambda: push.standings_rows(arena_id, ids, header=header))
    if pair and arena.phase(timezone.now()) == "running":
        transaction.on_commit(lambda: send_pair(arena_id))


def send_pair(arena_id: int) -> None:
    """Ask a worker to pair the arena (``tasks.pair_arena``); the wave pairs
    it anyway within PARLOUR_ARENA_WAVE_SECONDS if the broker is away."""
    try:
        tasks.send_task(PAIR_TASK, [arena_id], expires=settings.PARLOUR_ARENA_WAVE_SECONDS * 5)
    except Exception as e:  # noqa: BLE001 - the wave pairs it anyway
        log.warning("arena %s: pairing task not sent (%s); the wave will pair it", arena_id, e)


# -- pairing --------------------------------------------------------------------


def meetings(arena: Arena) -> Counter:
    """How often each pair of users (a sorted tuple of ids) met in this
    arena's rated matches."""
    met: Counter = Counter()
    rows = Seat.objects.filter(match__arena_match__arena=arena, match__rated=True).values_list(
        "match_id", "user_id")
    by_match: dict[int, list[int]] = {}
    for match_id, user_id in rows:
        by_match.setdefault(match_id, []).append(user_id)
    for users in by_match.values():
        users.sort()
        for i, a in enumerate(users):
            for b in users[i + 1:]:
                met[(a, b)] += 1
    return met


def pair_arena(arena_id: int, now: datetime | None = None, *, hold_repeats: bool = False) -> list[Match]:
    """Seat the free players of a running arena (README "Arenas", Pairing)
    and start their matches. Returns the started matches ([] when the arena
    is not running, or too few are free). The arena row is locked throughout,
    so two pairings of one arena never overlap and none follows its close.

    ``hold_repeats`` (the pairing after a match end or a join): a table that
    seats someone with their last match's opponent is not started; its
    players stay free for the next wave, when other matches may have ended
    (the wave pairs everyone, repeats included when the pool allows no other)."""
    now = now or timezone.now()
    started = []
    with transaction.atomic():
        arena = Arena.objects.select_for_update().filter(pk=arena_id).first()
        if arena is None or arena.phase(now) != "running" or arena.ends_at <= now:
            return []
        free = list(ArenaPlayer.objects.filter(
            arena=arena, status=ArenaPlayer.Status.ACTIVE, free_since__isnull=False,
            user__is_active=True).select_related("user").annotate(played=Count("results")))
        free = [p for p in free if not getattr(p.user, "is_banned", False)]
        if len(free) < arena.seats:
            return []
        busy = game_actions.busy_users(p.user_id for p in free)
        free = [p for p in free if p.user_id not in busy]
        if len(free) < arena.seats:
            return []
        by_user = {p.user_id: p for p in free}
        tables = pairing.pair(
            [pairing.Free(p.user_id, p.rating, (now - p.free_since).total_seconds(),
                          frozenset(p.last_opponents), p.played) for p in free],
            arena.seats,
        )
        if hold_repeats:
            last = {p.user_id: p.last_opponents for p in free}
            tables = [t for t in tables if not pairing.repeats([t], last)]
        if not tables:
            return []
        rated_now = arena.rated and arena.players.count() >= arena.rated_from_players
        met = meetings(arena) if rated_now else Counter()
        for table in tables:
            together.claim(table)  # against a ranked pairing or a challenge seating them at once
            if game_actions.busy_users(table):
                continue
            started.append(_start_table(arena, [by_user[u] for u in table], rated_now, met))
    return started


def _start_table(arena: Arena, players: list[ArenaPlayer], rated_now: bool, met: Counter) -> Match:
    _shuffle(players)  # seats (colours) by lot
    ids = sorted(p.user_id for p in players)
    pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:]]
    rated = rated_now and all(met[pair] < arena.rated_meetings for pair in pairs)
    if rated:
        for pair in pairs:
            met[pair] += 1
    match = game_actions.create_match(
        arena.kind, [game_actions.SeatSpec(user=p.user) for p in players], rated=rated, is_public=True,
        turn_seconds=arena.turn_seconds, options=queue_actions.ranked_options(arena.kind),
        event=arena.name, event_url=reverse("arena", args=[arena.pk]),
    )
    ArenaMatch.objects.create(arena=arena, match=match)
    ArenaPlayer.objects.filter(pk__in=[p.pk for p in players]).update(free_since=None)
    for p in players:
        queue_actions.leave_queue(p.user)  # one match at a time
    match = game_actions.start_match(match.public_id)
    user_ids, public_id, arena_id = [p.user_id for p in players], match.public_id, arena.pk
    player_ids = [p.pk for p in players]
    transaction.on_commit(lambda: push.paired(arena_id, user_ids, public_id))
    transaction.on_commit(lambda: push.standings_rows(arena_id, player_ids))
    href, game = reverse("match", args=[public_id]), sites.name(arena.kind)
    for user_id in user_ids:
        notify.notify(user_id, "match_found", f"Your {game} arena match is ready ({arena.name})", href,
                      match=public_id, key=f"found:{public_id}")
    log.info("arena %s: paired %s players into %s match %s", arena.pk, len(players),
             "a rated" if rated else "an unrated", public_id)
    return match


# -- a match ends ---------------------------------------------------------------


def on_match_ended(sender, match: Match, seats=None, **kwargs) -> None:
    """``games.signals.match_ended``: score an arena match once, inside the
    transaction that ends it (its ``seats`` carry the ranks and statuses)."""
    if not match.is_public:
        return
    arena_match = ArenaMatch.objects.select_for_update().filter(match_id=match.pk, scored=False).first()
    if arena_match is None:
        return
    score_match(arena_match, match, seats if seats is not None else list(match.seats.all()))


def score_match(arena_match: ArenaMatch, match: Match, seats, now: datetime | None = None) -> None:
    """Write ``match``'s results for its arena (README "Arenas", Scoring),
    recompute its players' points, free them for the next pairing (pausing
    one who left or idled out), and mark the arena match scored. An aborted
    match scores nothing. Must run in the transaction that ends the match."""
    now = now or match.finished_at or timezone.now()
    # After the close, the arena row first: two of its last matches ending at
    # once then score one after the other, so the second sees the first scored
    # and finishes the arena (each saw the other unscored before: the arena
    # stayed unfinished until the wave's next look). Not while it runs: a
    # match's last move would wait behind a whole pairing wave, which holds
    # that lock, and there is no finish to race for.
    arena = arena_match.arena
    if arena.closed_at is not None:
        arena = Arena.objects.select_for_update().get(pk=arena.pk)
    seated = [s for s in seats if s.user_id]
    players = {p.user_id: p for p in ArenaPlayer.objects.select_for_update().filter(
        arena=arena, user_id__in=[s.user_id for s in seated])}
    finished = match.status == Match.Status.FINISHED and all(s.rank for s in seated)
    if finished:
        shared = Counter(s.rank for s in seated)
        # Someone who left (or idled out) before a move of their own gave the
        # others nothing to win: their results count for nothing, as an
        # aborted match's would (README "Arenas", Scoring); the leaver's is a forfeit.
        moved = set(Move.objects.filter(match=match, actor="seat").values_list("seat", flat=True))
        unplayed = any(s.status != Seat.Status.PLAYING and s.index not in moved for s in seated)
        ArenaResult.objects.bulk_create([
            ArenaResult(arena_match=arena_match, player=players[s.user_id], rank=s.rank, seats=len(seated),
                        shared=shared[s.rank], forfeit=s.status != Seat.Status.PLAYING,
                        void=unplayed and s.status == Seat.Status.PLAYING, ended_at=now)
            for s in seated if s.user_id in players
        ])
    ratings = dict(Rating.objects.filter(user_id__in=list(players), kind=arena.kind)
                   .values_list("user_id", "rating"))
    for s in seated:
        player = players.get(s.user_id)
        if player is None:
            continue
        if finished:
            rescore(player)
        player.free_since = now
        player.rating = ratings.get(s.user_id, player.rating)
        player.last_opponents = [o.user_id for o in seated if o.user_id != s.user_id]
        if s.status != Seat.Status.PLAYING and player.status == ArenaPlayer.Status.ACTIVE:
            player.status = ArenaPlayer.Status.PAUSED
            player.paused_reason = ("you left your last match" if s.status == Seat.Status.LEFT
                                    else "you missed too many turns in your last match")
        player.save()
    arena_match.scored = True
    arena_match.save(update_fields=["scored"])
    finish_if_done(arena.pk, now)
    arena_id, ids = arena.pk, [p.pk for p in players.values()]
    transaction.on_commit(lambda: push.standings_rows(arena_id, ids))
    if arena.phase(now) == "running":
        transaction.on_commit(lambda: send_pair(arena_id))


def rescore(player: ArenaPlayer) -> None:
    """Set ``player``'s points, wins, streak, sequence and ``reached_at`` from
    their results (``scoring.score``), and each result's points. Not saved."""
    results = list(ArenaResult.objects.filter(player=player).order_by("ended_at", "pk"))
    scored = scoring.score([scoring.Result(r.rank, r.seats, r.shared, r.forfeit, r.void) for r in results])
    changed = []
    for r, pts in zip(results, scored.points, strict=True):
        if r.points != pts:
            r.points = pts
            changed.append(r)
    ArenaResult.objects.bulk_update(changed, ["points"])
    total = 0
    reached = None
    for r in results:
        if not r.void and r.points:
            total += r.points
            reached = r.ended_at
    if player.status == ArenaPlayer.Status.DISQUALIFIED:
        player.points, player.wins, player.on_fire = 0, 0, False
    else:
        player.points, player.wins, player.on_fire = scored.total, scored.wins, scored.on_fire
    player.reached_at = reached
    player.sequence = " ".join(str(r.points) for r in results if not r.void)[:400]


# -- moderation -----------------------------------------------------------------


def disqualify(player_id: int) -> ArenaPlayer:
    """Disqualify an arena player (``moderation.actions.disqualify_player``
    audit-logs it): their points go to 0, they are never paired again in this
    arena and may not rejoin it. Raises ArenaError if already disqualified."""
    with transaction.atomic():
        player = ArenaPlayer.objects.select_for_update().filter(pk=player_id).first()
        if player is None:
            raise ArenaError("There is no such arena player.")
        if player.status == ArenaPlayer.Status.DISQUALIFIED:
            raise ArenaError(f"{player.user} is already disqualified.")
        player.status = ArenaPlayer.Status.DISQUALIFIED
        rescore(player)
        player.save()
        write_final_ranks(player.arena)
        _after_change(player.arena, players=[player], header=True)
    return player


def void_match_results(match: Match) -> int:
    """A moderator voided ``match`` (``moderation.actions.void_match``, in its
    transaction): its arena results count for nothing and its players'
    points are recomputed. Returns how many results were voided."""
    arena_match = ArenaMatch.objects.filter(match=match).first()
    if arena_match is None:
        return 0
    voided = ArenaResult.objects.filter(arena_match=arena_match, void=False).update(void=True, points=0)
    players = list(ArenaPlayer.objects.select_for_update().filter(results__arena_match=arena_match))
    for player in players:
        rescore(player)
        player.save()
    write_final_ranks(arena_match.arena)
    _after_change(arena_match.arena, players=players)
    return voided


# -- the wave ---------------------------------------------------------------------


def wave(now: datetime | None = None) -> None:
    """Celery beat, every PARLOUR_ARENA_WAVE_SECONDS: create the scheduled
    arenas due, close those past their end, pair every running one, and
    finish closed ones whose last match ended."""
    now = now or timezone.now()
    create_due(now)
    open_due(now)
    close_due(now)
    running = Arena.objects.filter(closed_at__isnull=True, starts_at__lte=now).values_list("pk", flat=True)
    for arena_id in running:
        pair_arena(arena_id, now)
    for arena_id in Arena.objects.filter(closed_at__isnull=False, finished_at__isnull=True).values_list(
            "pk", flat=True):
        with transaction.atomic():
            finish_if_done(arena_id, now)
