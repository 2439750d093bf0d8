"""Dice race's computer player: rolling is its only decision."""

import os
import time


def choose(level, view, seat, legal, rng, budget_ms=None, iterations=None):
    """The first legal move (``roll``) at every level. A process started with
    DICERACE_BOT_SECONDS thinks that long first: a computer move as slow as a
    test needs (tests/test_celery_queues.py: a burst of computer moves)."""
    pause = float(os.environ.get("DICERACE_BOT_SECONDS") or 0)
    if pause:
        time.sleep(pause)
    return legal[0]
