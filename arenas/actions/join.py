"""A player enters an arena (or comes back after withdrawing)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import confirmation
from accounts.elo import INITIAL_RATING
from accounts.models import Rating
from arenas.actions import common
from arenas.actions.errors import ArenaError
from arenas.models import Arena, ArenaPlayer
from matchmaking.queue import actions as queue_actions


def _rating(user, kind: str) -> float:
    rating = Rating.objects.filter(user=user, kind=kind).values_list("rating", flat=True).first()
    return rating if rating is not None else INITIAL_RATING


def join(user, arena_id, *, now: datetime | None = None) -> ArenaPlayer:
    """Enter ``user`` in the arena (before or while it runs; a player who
    withdrew comes back with their points). Raises ArenaError: not allowed
    (signed out, banned), no such arena, closed, full, already in it,
    disqualified, a bot account (docs/api.md "Bot accounts"). Nothing changes
    then. A running arena is paired at once."""
    now = now or timezone.now()
    if getattr(user, "is_bot", False):
        raise ArenaError(_("A bot account never joins an arena: it plays people through challenges "
                           "and private rooms."), "bot_account")
    if not queue_actions.can_queue(user):
        raise ArenaError(_("You cannot join an arena."))
    confirmation.check_confirmed(user)
    with transaction.atomic():
        arena = common.find_arena(arena_id)
        arena = Arena.objects.select_for_update().get(pk=arena.pk)
        if arena.phase(now) in ("closing", "finished") or arena.ends_at <= now:
            raise ArenaError(_("This arena has ended."))
        player = ArenaPlayer.objects.filter(arena=arena, user=user).first()
        if player is not None:
            if player.status == ArenaPlayer.Status.DISQUALIFIED:
                raise ArenaError(_("You were disqualified from this arena."))
            if player.status != ArenaPlayer.Status.WITHDRAWN:
                raise ArenaError(_("You are already in this arena."))
            player.status, player.paused_reason = ArenaPlayer.Status.ACTIVE, ""
            player.save(update_fields=["status", "paused_reason"])
        else:
            if arena.max_players and arena.players.count() >= arena.max_players:
                raise ArenaError(_("This arena is full."))
            player = ArenaPlayer.objects.create(arena=arena, user=user, joined_at=now, free_since=now,
                                                rating=_rating(user, arena.kind))
        common.after_change(arena, pair=True, players=[player], header=True)
    return player
