"""The Celery queues and the workers that take them (config/workers.py; issue
37, item 7): turn deadlines have a queue and, in every layout, a worker of
their own, so a burst of computer moves never holds a clock up (shown with
real workers in tests/dicerace/test_dicerace_deadlines.py)."""

import shlex

from django.conf import settings

import config.settings as production
from config import cluster, run, supervisor, workers
from config.celery import app
from games import tasks  # noqa: F401 - registers the games' tasks
from matchmaking import tasks as matchmaking_tasks  # noqa: F401 - registers theirs
from tests import services

DEADLINE_TASKS = ["games.tasks.expire_turn", "games.tasks.auto_resume", "games.tasks.sweep_deadlines"]


def queue_of(name: str) -> str:
    return app.amqp.router.route({}, name)["queue"].name


def test_deadlines_and_computer_moves_go_to_queues_of_their_own():
    queues = workers.queues()
    assert len(set(queues.values())) == 3
    for name in DEADLINE_TASKS:
        assert queue_of(name) == queues["deadlines"], name
    assert queue_of("games.tasks.computer_move") == queues["live"]
    for name in [n for n in app.tasks if n.startswith("matchmaking.") or n.startswith("arenas.")]:
        assert queue_of(name) == queues["default"], name


def test_the_production_routes_are_the_same():
    routes = production.CELERY_TASK_ROUTES
    assert routes == production.celery_task_routes(production.PARLOUR_LIVE_QUEUE,
                                                   production.PARLOUR_DEADLINE_QUEUE)
    assert production.PARLOUR_DEADLINE_QUEUE == "parlour-deadlines"


def consumed(commands: dict[str, list[str]]) -> dict[str, set[str]]:
    """For each Celery worker among ``commands`` (name -> argv): its queues."""
    found = {}
    for name, argv in commands.items():
        if argv[1:3] == ["-m", "celery"] and "worker" in argv:
            found[name] = set(argv[argv.index("-Q") + 1].split(","))
    return found


def assert_deadlines_have_a_worker_of_their_own(commands, queues):
    taken = consumed(commands)
    assert set().union(*taken.values()) == set(queues.values()), "a queue no worker takes"
    takers = [name for name, names in taken.items() if queues["deadlines"] in names]
    assert takers and all(taken[name] == {queues["deadlines"]} for name in takers), taken


def test_make_run_has_a_deadline_worker_of_its_own(monkeypatch):
    monkeypatch.setenv("REDIS_URL", settings.REDIS_URL)  # no embedded Redis program
    programs = {p.name: shlex.split(p.command) for p in run.programs("127.0.0.1", 8000)}
    assert_deadlines_have_a_worker_of_their_own(programs, workers.queues())
    assert consumed(programs)["worker"] == {settings.CELERY_TASK_DEFAULT_QUEUE, settings.PARLOUR_LIVE_QUEUE}


def test_make_cluster_has_a_deadline_worker_of_its_own(monkeypatch, tmp_path):
    monkeypatch.setenv("REDIS_URL", settings.REDIS_URL)
    programs = {p.name: shlex.split(p.command)
                for p in cluster.programs(tmp_path, 9000, 2, pin=False, nginx=None)}
    assert_deadlines_have_a_worker_of_their_own(programs, workers.queues())
    assert consumed(programs).keys() == {"deadlines", "live", "default"}


def test_deploy_runs_the_production_workers():
    """deploy/Procfile (and so deploy/supervisord.conf, made from it) runs
    config.workers.production_workers with the production queue names."""
    procfile = {p.name: shlex.split(p.command) for p in supervisor.read_procfile()}
    expected = workers.production_workers(production)
    for name, argv in expected.items():
        assert procfile[name] == ["python", *argv[1:]], name
    assert_deadlines_have_a_worker_of_their_own(procfile, workers.queues(production))


def test_the_test_workers_take_every_queue():
    assert set(services.task_queues()) == set(workers.queues().values())
