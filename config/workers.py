"""The Celery workers of each layout: which queues each takes and its command
line (``make run``, ``make cluster``; deploy/Procfile writes the production
ones out by hand, and a test checks that they agree).

Three queues (``config/settings.py``, README "Production layout"):

- ``PARLOUR_DEADLINE_QUEUE``: turn deadlines, the ends of pauses and the
  deadline sweeper, all short transactions;
- ``PARLOUR_LIVE_QUEUE``: computer moves (a strong computer thinks up to
  ``PARLOUR_BOT_BUDGET_MS`` first);
- ``CELERY_TASK_DEFAULT_QUEUE``: everything else (pairing waves, lapses).

Every layout runs a worker of its own for the deadlines. A queue alone would
not be enough: a worker takes a task with a due time (a deadline, and a
computer move after its delay) from its queue at once and holds it until
then, so at its time it waits for a free process of that worker's pool
behind whatever else has come due. A burst of computer moves would fill the
pool and a deadline would wait for all of them (an attack's thirty solo
matches made other players' computers five times slower); with a pool of
their own, deadlines never wait for a computer. One account's burst is kept
small besides: ``PARLOUR_COMPUTER_MATCHES_PER_USER`` (``games.actions``).
"""

from __future__ import annotations

import sys


def queues(conf=None) -> dict[str, str]:
    """The queue names of ``conf`` (the settings, by default): ``deadlines``,
    ``live`` and ``default``."""
    if conf is None:
        from django.conf import settings as conf
    return {"deadlines": conf.PARLOUR_DEADLINE_QUEUE, "live": conf.PARLOUR_LIVE_QUEUE,
            "default": conf.CELERY_TASK_DEFAULT_QUEUE}


def worker_argv(name: str, queue_names: list[str], concurrency: int) -> list[str]:
    """``python -m celery worker`` named ``name@<host>`` taking ``queue_names``
    with a pool of ``concurrency`` processes."""
    return [sys.executable, "-m", "celery", "-A", "config", "worker", "-l", "info",
            "-c", str(concurrency), "-Q", ",".join(queue_names), "-n", f"{name}@%h"]


def production_workers(conf=None) -> dict[str, list[str]]:
    """The production layout's workers (``make cluster``, deploy/Procfile), by
    name: ``deadlines`` (2 processes), ``live`` (the computers' moves, 2) and
    ``default`` (1)."""
    q = queues(conf)
    return {
        "deadlines": worker_argv("deadlines", [q["deadlines"]], 2),
        "live": worker_argv("live", [q["live"]], 2),
        "default": worker_argv("default", [q["default"]], 1),
    }


def run_workers(conf=None) -> dict[str, list[str]]:
    """``make run``'s workers, by name: ``worker`` (the computers' moves and
    the default queue, 2 processes) and ``deadlines`` (1)."""
    q = queues(conf)
    return {
        "worker": worker_argv("worker", [q["default"], q["live"]], 2),
        "deadlines": worker_argv("deadlines", [q["deadlines"]], 1),
    }
