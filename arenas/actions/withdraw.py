"""A player steps out of an arena's pool: withdraws, or pauses, and resumes."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from arenas.actions import common
from arenas.actions.errors import ArenaError
from arenas.models import ArenaPlayer


def withdraw(user, arena_id) -> ArenaPlayer:
    """Leave the arena's pool: not paired again (a match being played goes
    on and counts when it ends). Points stay; joining again comes back."""
    with transaction.atomic():
        player = common.entry(user, arena_id)
        if player.status == ArenaPlayer.Status.DISQUALIFIED:
            raise ArenaError(_("You were disqualified from this arena."))
        common.require_not_over(player.arena)
        player.status, player.paused_reason = ArenaPlayer.Status.WITHDRAWN, ""
        player.save(update_fields=["status", "paused_reason"])
        common.after_change(player.arena, players=[player])
    return player


def pause(user, arena_id, reason: str = "") -> ArenaPlayer:
    """Not paired again until ``resume``; a match being played goes on."""
    with transaction.atomic():
        player = common.entry(user, arena_id)
        if player.status != ArenaPlayer.Status.ACTIVE:
            raise ArenaError(_("You are not playing in this arena now."))
        common.require_not_over(player.arena)
        player.status, player.paused_reason = ArenaPlayer.Status.PAUSED, reason[:80]
        player.save(update_fields=["status", "paused_reason"])
        common.after_change(player.arena, players=[player])
    return player


def resume(user, arena_id) -> ArenaPlayer:
    """Back in the pool after a pause (one's own, or after a leave or an idle-out)."""
    with transaction.atomic():
        player = common.entry(user, arena_id)
        if player.status != ArenaPlayer.Status.PAUSED:
            raise ArenaError(_("You are not paused in this arena."))
        common.require_not_over(player.arena)
        player.status, player.paused_reason = ArenaPlayer.Status.ACTIVE, ""
        player.save(update_fields=["status", "paused_reason"])
        common.after_change(player.arena, pair=True, players=[player])
    return player
