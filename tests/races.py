"""Run callables at the same instant, for the tests of races (double submits,
a move against its deadline, two invites, two finishes)."""

from __future__ import annotations

import threading

from django.db import close_old_connections


def race(*fns, timeout: float = 30) -> list:
    """Call every one of ``fns`` in its own thread, released together by a
    barrier; returns their results in order, an exception standing for the
    result of a call that raised. Each thread closes its database connection."""
    barrier = threading.Barrier(len(fns))
    results: list = [None] * len(fns)

    def run(i, fn):
        barrier.wait()
        try:
            results[i] = fn()
        except Exception as e:  # the loser's error is its result
            results[i] = e
        finally:
            close_old_connections()

    threads = [threading.Thread(target=run, args=(i, fn)) for i, fn in enumerate(fns)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    return results
