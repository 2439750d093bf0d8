"""Moderation's arena actions (called by ``moderation.actions``, which
audit-logs them): disqualifying a player, voiding a match's results."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from arenas.actions import common
from arenas.actions.errors import ArenaError
from arenas.actions.finish import write_final_ranks
from arenas.actions.score import rescore
from arenas.models import ArenaMatch, ArenaPlayer, ArenaResult
from games.models import Match


def disqualify(player_id: int) -> ArenaPlayer:
    """Disqualify an arena player (``moderation.actions.disqualify_player``
    audit-logs it): their points go to 0, they are never paired again in this
    arena and may not rejoin it. Raises ArenaError if already disqualified."""
    with transaction.atomic():
        player = ArenaPlayer.objects.select_for_update().filter(pk=player_id).first()
        if player is None:
            raise ArenaError(_("There is no such arena player."))
        if player.status == ArenaPlayer.Status.DISQUALIFIED:
            raise ArenaError(_("%(name)s is already disqualified.") % {"name": player.user})
        player.status = ArenaPlayer.Status.DISQUALIFIED
        rescore(player)
        player.save()
        write_final_ranks(player.arena)
        common.after_change(player.arena, players=[player], header=True)
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
    common.after_change(arena_match.arena, players=players)
    return voided
