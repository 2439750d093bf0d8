"""A turn deadline is played on time during a burst of computer moves (issue
37, item 7; config/workers.py): the production layout's workers, real
processes, with dice race's computer made slow (DICERACE_BOT_SECONDS)."""

import pytest

from config import workers
from games.actions.core import allowance
from games.models import Move
from tests import services
from tests.factories import make_match, make_user


@pytest.mark.slow
def test_a_deadline_is_not_held_up_by_a_burst_of_computer_moves(dicerace, transactional_db):
    """Eight computer moves of 1.5 s each at once (one account's thirty solo
    matches, in small) on the production workers: the live worker's two
    processes need six seconds for them. A turn deadline that falls due
    meanwhile is played on time by the deadlines' own worker, while most of
    the burst still waits. (With one pool for both, the deadline's task, held
    by the worker until its time, then waited for a free process behind the
    computer moves: seconds late.)"""
    services.purge_task_queues()
    started = services.start_layout_workers(
        workers.production_workers(), DJANGO_SETTINGS_MODULE="tests.dicerace.settings",
        DICERACE_BOT_SECONDS="1.5")
    try:
        player = make_user()
        burst = [make_match(dicerace, seats=("easy", "human"), users=[player]) for _ in range(8)]
        clock = make_match(dicerace, seats=("human", "human"), turn_seconds=1)
        due = clock.deadline + allowance()

        def computer_moves():
            return Move.objects.filter(match__in=burst, actor=Move.Actor.SEAT, seat=0).count()

        timeout = services.wait_for(
            lambda: Move.objects.filter(match=clock, notation="timeout").first(), 30,
            interval=0.05, what="the turn deadline to be played")
        played_by_then = computer_moves()
        late = (timeout.created_at - due).total_seconds()
        assert late < 1.5, f"the deadline was played {late:.2f} s late"
        assert played_by_then <= 6, "the burst was over before the deadline: the test proves nothing"
    finally:
        for svc in started.values():
            svc.stop()
        services.purge_task_queues()
