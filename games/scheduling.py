"""Sending the games' Celery tasks (``games.tasks``) by name, after commit.

The tasks call the actions, and the actions schedule the tasks: naming them
here, rather than importing ``games.tasks``, keeps that a one-way import.
They leave through ``core.tasks.send_task``: a task registered in this
process (a worker, or wherever ``games.tasks`` was imported) is sent through
its own ``apply_async``, with its options; else by name: ``CELERY_TASK_ROUTES``
routes names alike, and the worker runs it with its task's time limits.
"""

from __future__ import annotations

from core import tasks

EXPIRE_TURN = "games.tasks.expire_turn"
COMPUTER_MOVE = "games.tasks.computer_move"
AUTO_RESUME = "games.tasks.auto_resume"


def send(name: str, args: tuple, **options) -> None:
    """Send task ``name`` with positional ``args`` (ids and versions) and
    Celery's calling ``options`` (``eta``, ``countdown`` in seconds)."""
    tasks.send_task(name, args, **options)
