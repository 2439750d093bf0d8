"""Pairing a running arena: its free players seated by the pure
``arenas.pairing.pair``, a match started per table through ``games.actions``."""

from __future__ import annotations

import logging
import random
from collections import Counter
from datetime import datetime

from django.db import transaction
from django.db.models import Count
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts import blocks
from arenas import pairing, push
from arenas.models import Arena, ArenaMatch, ArenaPlayer
from games import actions as game_actions
from games import sites
from games.models import Match, Seat
from matchmaking import languages, together
from matchmaking.queue import actions as queue_actions
from notifications import notify

log = logging.getLogger("arenas.actions")
_shuffle = random.SystemRandom().shuffle


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
        free = _free_players(arena)
        if len(free) < arena.seats:
            return []
        by_user = {p.user_id: p for p in free}
        tables = _tables(arena, free, now, hold_repeats)
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


def _free_players(arena: Arena) -> list[ArenaPlayer]:
    """The players of ``arena`` (locked) who may be paired now: active, free
    since their last match, their account active, not banned and not a bot, and seated
    in no match not ended (``games.actions.busy_users``, asked only when
    enough are left to fill a table). Each has ``played``: their results. In
    the order they became free (then joined): the pairing breaks its ties by
    that order, never by the database's whim (an aggregate query has none)."""
    free = list(ArenaPlayer.objects.filter(
        arena=arena, status=ArenaPlayer.Status.ACTIVE, free_since__isnull=False,
        user__is_active=True, user__is_bot=False).select_related("user").annotate(played=Count("results"))
        .order_by("free_since", "pk"))
    free = [p for p in free if not getattr(p.user, "is_banned", False)]
    if len(free) < arena.seats:
        return free
    busy = game_actions.busy_users(p.user_id for p in free)
    return [p for p in free if p.user_id not in busy]


def _tables(arena: Arena, free: list[ArenaPlayer], now: datetime, hold_repeats: bool) -> list[tuple]:
    """The tables (tuples of user ids) ``arenas.pairing.pair`` makes of
    ``free``; with ``hold_repeats``, without those that seat someone with
    their last match's opponent. Two players apart by a block (either way,
    ``accounts.blocks.apart``: one query) count as each other's last
    opponents: kept apart as a repeat is, where the pool allows."""
    foes: dict[int, set[int]] = {}
    for a, b in map(tuple, blocks.apart(p.user_id for p in free)):
        foes.setdefault(a, set()).add(b)
        foes.setdefault(b, set()).add(a)
    last = {p.user_id: frozenset(p.last_opponents) | foes.get(p.user_id, frozenset()) for p in free}
    tables = pairing.pair(
        [pairing.Free(p.user_id, p.rating, (now - p.free_since).total_seconds(),
                      last[p.user_id], p.played) for p in free],
        arena.seats,
    )
    if hold_repeats:
        tables = [t for t in tables if not pairing.repeats([t], last)]
    return tables


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
    href = reverse("match", args=[public_id])
    for user_id, code in languages.of_users(user_ids).items():
        with translation.override(code):
            text = _("Your %(game)s arena match is ready (%(arena)s)") % {
                "game": sites.name(arena.kind), "arena": arena.name}
        notify.notify(user_id, "match_found", text, href, match=public_id, key=f"found:{public_id}")
    log.info("arena %s: paired %s players into %s match %s", arena.pk, len(players),
             "a rated" if rated else "an unrated", public_id)
    return match
