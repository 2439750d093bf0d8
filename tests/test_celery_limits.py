"""Celery hygiene (README "Decisions"): every task has a soft and a hard time
limit, and the frequent beat entries expire after one period, so they do not
pile up while no worker takes them. The last two tests use a real worker."""

import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from accounts import tasks as accounts_tasks  # noqa: F401 - registers housekeeping
from config.celery import app
from games import tasks
from games.models import Match, Move
from matchmaking import tasks as matchmaking_tasks  # noqa: F401 - registers queue_wave
from tests import services
from tests.factories import ludo_state, make_match

OUR_TASKS = sorted(name for name in app.tasks if name.split(".")[0] in ("games", "matchmaking", "accounts"))


def test_our_tasks_are_all_found():
    assert set(OUR_TASKS) >= {
        "games.tasks.expire_turn", "games.tasks.sweep_deadlines", "games.tasks.auto_resume",
        "games.tasks.computer_move", "matchmaking.tasks.queue_wave",
        "accounts.tasks.housekeeping", "matchmaking.tasks.housekeeping",
    }


@pytest.mark.parametrize("name", OUR_TASKS)
def test_every_task_has_a_soft_and_a_hard_time_limit(name):
    task = app.tasks[name]
    soft = task.soft_time_limit or app.conf.task_soft_time_limit
    hard = task.time_limit or app.conf.task_time_limit
    assert soft and hard, f"{name} has no time limit"
    assert 0 < soft < hard


def test_the_defaults_give_any_other_task_limits_too():
    assert 0 < app.conf.task_soft_time_limit < app.conf.task_time_limit


@pytest.mark.parametrize("entry", sorted(settings.CELERY_BEAT_SCHEDULE))
def test_each_beat_entry_expires_within_its_period(entry):
    spec = settings.CELERY_BEAT_SCHEDULE[entry]
    expires = spec.get("options", {}).get("expires")
    assert expires is not None, f"beat entry {entry!r} never expires"
    schedule = spec["schedule"]
    if not isinstance(schedule, (int, float)):  # the housekeeping's crontab: once a day
        assert len(schedule.hour) == len(schedule.minute) == 1 and len(schedule.day_of_week) == 7
        schedule = 24 * 60 * 60
    assert 0 < expires <= schedule


def overdue_match():
    """A live match whose deadline passed a minute ago, and no task of its own queued."""
    match = make_match(seats=("human", "human"), state=ludo_state())
    services.purge_task_queues()  # the deadline task make_match sent
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    return match


def timeouts(match):
    return Move.objects.filter(match=match, notation="timeout").count()


@pytest.mark.slow
def test_a_sweep_that_waited_past_its_period_is_dropped_unrun_by_the_worker(transactional_db):
    """Sent by beat's own entry options while no worker runs, the sweep waits
    longer than its period: the worker, once up, discards it, and only a
    fresh sweep expires the overdue match."""
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-deadlines"]
    match = overdue_match()
    stale = app.tasks[entry["task"]].apply_async(**entry.get("options", {}))
    time.sleep(entry["schedule"] + 1)
    worker = services.start_celery_worker("worker-expiry")
    try:
        services.wait_for(lambda: f"[{stale.id}]" in worker.log(), 30,
                          what="the worker to take the stale sweep")
        time.sleep(1)
        assert f"Discarding revoked task: {entry['task']}[{stale.id}]" in worker.log()
        assert timeouts(match) == 0
        tasks.sweep_deadlines.apply_async()
        services.wait_for(lambda: timeouts(match) == 1, 30, what="a fresh sweep to expire the match")
    finally:
        worker.stop()


@pytest.mark.slow
def test_a_computer_thinking_past_its_time_limit_is_stopped_and_the_worker_goes_on(transactional_db):
    """A strong Rondo computer given ten minutes to think (the budget is 200 ms
    in production) is stopped at computer_move's soft limit; its move is not
    played, and the same worker runs the next task."""
    services.purge_task_queues()
    worker = services.start_celery_worker("worker-limits", PARLOUR_BOT_BUDGET_MS="600000")
    try:
        # The starting seat is drawn (fairly, from the seed and the match id):
        # take the first of these fixed ids that has the computer start.
        match = next(m for m in (make_match("rondo", seats=("strong", "human"), public_id=f"limits{i:02d}")
                                 for i in range(20)) if m.deadline is None)
        soft = tasks.computer_move.soft_time_limit or app.conf.task_soft_time_limit
        services.wait_for(
            lambda: "Soft time limit" in worker.log(), (soft or 0) + 30,
            what="the worker to stop the computer's move at its soft limit",
        )
        assert f"Soft time limit ({soft}s) exceeded for games.tasks.computer_move[" in worker.log()
        assert Match.objects.get(pk=match.pk).version == match.version  # nothing played
        assert worker.alive()
        # The pool process is free again: an overdue deadline is swept.
        overdue = overdue_match()
        tasks.sweep_deadlines.apply_async()
        services.wait_for(lambda: timeouts(overdue) == 1, 30, what="the worker to run the next task")
    finally:
        worker.stop()
