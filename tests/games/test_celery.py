"""Turn deadlines and computer moves through a real Celery worker on the
embedded Redis, against the test database; and the sweeper that catches a
deadline whose worker was killed."""

import signal
import time

import pytest

from games import actions
from games.models import Match, Move
from tests import services
from tests.factories import ludo_state, make_match

pytestmark = pytest.mark.slow


def timeouts(match):
    return list(Move.objects.filter(match=match, notation="timeout").values_list("seat", flat=True))


def test_a_short_deadline_expires_the_turn(celery_worker):
    match = make_match(seats=("human", "human"), state=ludo_state(), turn_seconds=2)
    started = time.monotonic()
    services.wait_for(lambda: timeouts(match), 2 + 10, what="the turn to expire")
    assert time.monotonic() - started >= 1.5  # not before its deadline
    m = Match.objects.get(pk=match.pk)
    assert timeouts(match) == [0]
    assert m.seats.get(index=0).missed_turns == 1
    assert m.state["turn"] == 1 and m.deadline is not None


def test_a_deadline_covered_by_an_earlier_task_still_expires_on_time(celery_worker):
    """A move before the pending deadline sends no task of its own: the
    pending one runs, finds the match moved on and hands over (no beat here,
    so not the sweeper)."""
    match = make_match(seats=("human", "human"), state=ludo_state(), turn_seconds=3)
    m = Match.objects.get(pk=match.pk)
    first_task_at = m.deadline_task_at
    time.sleep(1)
    moved = actions.play_move(m.public_id, m.seats.get(index=0).user, "roll", m.version)
    assert moved.deadline > first_task_at
    assert Match.objects.get(pk=match.pk).deadline_task_at == first_task_at  # no new task
    services.wait_for(lambda: timeouts(match), 3 + 10, what="the handed-over deadline to expire")
    expired = Move.objects.get(match=match, notation="timeout")
    assert expired.created_at >= moved.deadline  # not at the first task's time
    time.sleep(1)
    assert len(timeouts(match)) == 1


def test_computers_move_through_the_worker(celery_worker):
    match = make_match(seats=("human", "easy", "easy"), state=ludo_state(3, turn=1))

    def back_to_the_human():
        # A computer that rolls a six moves again, so wait for the turn to come
        # round, not for seat 2's first move (that raced: it failed ~1 run in 6).
        m = Match.objects.get(pk=match.pk)
        return m.state["turn"] == 0 and Move.objects.filter(match=match, actor="seat", seat=2).exists()

    services.wait_for(back_to_the_human, 45, what="both computers to move and the turn to come back")
    m = Match.objects.get(pk=match.pk)
    assert m.status == "active" and m.deadline is not None
    assert set(Move.objects.filter(match=match, actor="seat").values_list("seat", flat=True)) == {1, 2}


def test_the_sweeper_expires_a_deadline_whose_worker_was_killed(own_celery_worker, celery_beat):
    celery_worker = own_celery_worker
    match = make_match(seats=("human", "human"), state=ludo_state(), turn_seconds=4)
    deadline = Match.objects.get(pk=match.pk).deadline
    services.wait_for(lambda: "games.tasks.expire_turn" in celery_worker.log(), 10,
                      what="the worker to take the deadline task")
    celery_worker.kill(signal.SIGKILL)
    celery_worker.proc.wait(10)
    replacement = services.start_celery_worker("celery-worker-2")
    try:
        services.wait_for(lambda: timeouts(match), 4 + 10, what="the sweeper to expire the turn")
        from django.utils import timezone

        assert timezone.now() >= deadline
        time.sleep(2)  # a second sweep must not expire it again
        assert timeouts(match) == [0]
        assert "swept an overdue deadline" in replacement.log()
    finally:
        replacement.stop()
