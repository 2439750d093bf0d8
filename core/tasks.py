"""Sending Celery tasks by name, so that the code that schedules a task
need not import the module that defines it (the task calls that code: naming
it keeps the import one-way).

A task registered in this process (a worker, or wherever its module was
imported; in tests, the task object itself, which a test may replace) is sent
through its own ``apply_async``, with its own options; else the current Celery
app's ``send_task`` sends it by name: ``CELERY_TASK_ROUTES`` routes names
alike, and the worker runs it with its task's time limits.
"""

from __future__ import annotations

from datetime import datetime

from celery import current_app

#: The default of ``send_task``'s named options: not passed to Celery at all
#: (None is passed as given, as Celery's own default).
NOT_GIVEN: object = object()


def send_task(name: str, args, *, at: datetime | object = NOT_GIVEN,
              countdown: float | None | object = NOT_GIVEN,
              expires: float | datetime | None | object = NOT_GIVEN, **options) -> None:
    """Send Celery task ``name`` (its registered name) with positional ``args``.

    ``at``: the aware datetime to run it at (Celery's ``eta``); ``countdown``:
    seconds from now; ``expires``: seconds from now, or an aware datetime,
    after which a worker drops it unrun; ``options``: any other of Celery's
    calling options (e.g. ``eta``). Only the options given are passed on, as
    given. Raises what Celery raises when the broker cannot be reached (e.g.
    kombu's ``OperationalError``)."""
    for key, value in (("eta", at), ("countdown", countdown), ("expires", expires)):
        if value is not NOT_GIVEN:
            options[key] = value
    task = current_app.tasks.get(name)
    if task is not None:
        task.apply_async(args, **options)
    else:
        current_app.send_task(name, args, **options)
