"""Celery tasks of arenas: the wave (Celery beat, every
PARLOUR_ARENA_WAVE_SECONDS) and pairing one arena after a match end or a
join. Idempotent: a late or doubled run pairs whoever is still free, and
nobody twice (the arena row is locked while it pairs)."""

from celery import shared_task

from arenas import actions

# Seconds, soft then hard: a wave cut short is redone by the next one.
LIMITS = {"soft_time_limit": 20, "time_limit": 30}


@shared_task(ignore_result=True, **LIMITS)
def arena_wave() -> None:
    """Create the scheduled arenas due, close and finish them on time, pair every running one."""
    actions.wave()


@shared_task(name=actions.PAIR_TASK, ignore_result=True, **LIMITS)
def pair_arena(arena_id: int) -> None:
    """Pair arena ``arena_id`` now (it is a no-op unless the arena runs),
    holding a table of players who just met until the next wave (more may be
    free by then: README "Arenas", Pairing)."""
    actions.pair_arena(arena_id, hold_repeats=True)
