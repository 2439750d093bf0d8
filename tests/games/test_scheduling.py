"""games.scheduling names the tasks of games.tasks; what it sends goes through
the registered task where there is one."""

from config.celery import app
from games import scheduling, tasks


def test_every_scheduled_name_is_a_task_of_games_tasks():
    for name, task in ((scheduling.EXPIRE_TURN, tasks.expire_turn),
                       (scheduling.COMPUTER_MOVE, tasks.computer_move),
                       (scheduling.AUTO_RESUME, tasks.auto_resume)):
        assert app.tasks[name] is task._get_current_object()


def test_a_registered_task_is_sent_through_its_own_apply_async(monkeypatch):
    calls = []
    monkeypatch.setattr(tasks.expire_turn, "apply_async", lambda args, **kw: calls.append((args, kw)))
    scheduling.send(scheduling.EXPIRE_TURN, ("abc", 3), countdown=5)
    assert calls == [(("abc", 3), {"countdown": 5})]
