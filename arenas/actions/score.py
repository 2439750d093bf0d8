"""A match of an arena ends: its results and its players' points, in the
transaction that ends it (the receiver of ``games.signals.match_ended``)."""

from __future__ import annotations

from collections import Counter
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.models import Rating
from arenas import push, scoring
from arenas.actions import common
from arenas.actions.finish import finish_if_done
from arenas.models import Arena, ArenaMatch, ArenaPlayer, ArenaResult
from games.models import Match, Move, Seat


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
        _write_results(arena_match, match, seated, players, now)
    ratings = dict(Rating.objects.filter(user_id__in=list(players), kind=arena.kind)
                   .values_list("user_id", "rating"))
    for s in seated:
        player = players.get(s.user_id)
        if player is not None:
            _free_after(player, s, seated, now, rescored=finished, ratings=ratings)
    arena_match.scored = True
    arena_match.save(update_fields=["scored"])
    finish_if_done(arena.pk, now)
    arena_id, ids = arena.pk, [p.pk for p in players.values()]
    transaction.on_commit(lambda: push.standings_rows(arena_id, ids))
    if arena.phase(now) == "running":
        transaction.on_commit(lambda: common.send_pair(arena_id))


def _write_results(arena_match: ArenaMatch, match: Match, seated: list[Seat],
                   players: dict[int, ArenaPlayer], now: datetime) -> None:
    """One ArenaResult per seat of ``seated`` (its human seats) whose user
    plays in the arena (``players``, by user id), for ``match`` finished with
    every rank set: ties share their rank, a seat that left is a forfeit."""
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


def _free_after(player: ArenaPlayer, seat: Seat, seated: list[Seat], now: datetime, *, rescored: bool,
                ratings: dict[int, float]) -> None:
    """After its match (``seat``, among the human ``seated``): ``player``'s
    points again when ``rescored``, free for the next pairing from ``now``,
    its rating (``ratings`` by user id) and last opponents; paused when it
    left or idled out of the match while active. Saved."""
    if rescored:
        rescore(player)
    player.free_since = now
    player.rating = ratings.get(seat.user_id, player.rating)
    player.last_opponents = [o.user_id for o in seated if o.user_id != seat.user_id]
    if seat.status != Seat.Status.PLAYING and player.status == ArenaPlayer.Status.ACTIVE:
        player.status = ArenaPlayer.Status.PAUSED
        # Stored in English, shown translated (templates/arenas/arena.html).
        player.paused_reason = (gettext_noop("you left your last match") if seat.status == Seat.Status.LEFT
                                else gettext_noop("you missed too many turns in your last match"))
    player.save()


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
