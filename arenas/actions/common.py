"""What the arena actions share: finding an arena and a player's entry, and
what follows a change (its rows pushed after commit, the arena paired by its
Celery task, sent by name through ``core.tasks``)."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from arenas import push
from arenas.actions.errors import ArenaError
from arenas.models import Arena, ArenaPlayer
from core import tasks

log = logging.getLogger("arenas.actions")

#: The Celery task ``pair_arena`` runs in (sent after a match end or a join).
PAIR_TASK = "arenas.tasks.pair_arena"


def find_arena(arena_id) -> Arena:
    """The arena named by URL or form input; raises ArenaError for anything else."""
    try:
        pk = int(arena_id)
    except (TypeError, ValueError):
        raise ArenaError(_("There is no such arena.")) from None
    arena = Arena.objects.filter(pk=pk).first()
    if arena is None:
        raise ArenaError(_("There is no such arena."))
    return arena


def entry(user, arena_id) -> ArenaPlayer:
    """``user``'s entry in the arena, locked. Raises ArenaError (signed out,
    no such arena, not in it)."""
    if user is None or not user.is_authenticated:
        raise ArenaError(_("Sign in first."))
    arena = find_arena(arena_id)
    player = ArenaPlayer.objects.select_for_update().filter(arena=arena, user=user).first()
    if player is None:
        raise ArenaError(_("You are not in this arena."))
    return player


def require_not_over(arena: Arena) -> None:
    """An entry changes only while the arena takes entries: after its close
    the standings stay as they ended (a finished row never turns "withdrawn")."""
    if arena.phase(timezone.now()) in ("closing", "finished"):
        raise ArenaError(_("This arena has ended."))


def after_change(arena: Arena, *, players, pair: bool = False, header: bool = False) -> None:
    """After commit: push the rows of ``players`` (and the header: its count
    of players), and pair the arena when ``pair`` and it runs."""
    arena_id = arena.pk
    ids = [p.pk for p in players]
    transaction.on_commit(lambda: push.standings_rows(arena_id, ids, header=header))
    if pair and arena.phase(timezone.now()) == "running":
        transaction.on_commit(lambda: send_pair(arena_id))


def send_pair(arena_id: int) -> None:
    """Ask a worker to pair the arena (``tasks.pair_arena``, sent by name
    through ``core.tasks.send_task``, dropped unrun after five waves); the
    wave pairs it anyway within PARLOUR_ARENA_WAVE_SECONDS if the broker is away."""
    try:
        tasks.send_task(PAIR_TASK, [arena_id], expires=settings.PARLOUR_ARENA_WAVE_SECONDS * 5)
    except Exception as e:  # noqa: BLE001 - the wave pairs it anyway
        log.warning("arena %s: pairing task not sent (%s); the wave will pair it", arena_id, e)
