"""What arenas do when an account closes (``accounts.closing``)."""

from __future__ import annotations

from arenas.actions import ArenaError, withdraw
from arenas.models import ArenaPlayer


def on_account_closing(sender, user, **kwargs) -> None:
    """``user`` withdraws from every arena it plays in that has not ended:
    never paired again; its points and results stay in the standings
    (shown as "deleted player")."""
    playing = ArenaPlayer.objects.filter(user=user, status__in=(ArenaPlayer.Status.ACTIVE,
                                                                ArenaPlayer.Status.PAUSED))
    for arena_id in playing.values_list("arena_id", flat=True):
        try:
            withdraw(user, arena_id)
        except ArenaError:
            pass  # the arena has ended: its standings stay as they ended
