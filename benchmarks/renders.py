"""The frames of a move, rendered alone: what ``push.match_changed`` costs.

Run: ``.venv/bin/python -m benchmarks.renders [--matches N] [--plies N]
[--repeats N]`` (``make bench-renders``).

It migrates a fresh SQLite file under ``var/bench-renders/`` with production
settings, plays ``--matches`` four-seat Ludo matches of logged-in users
(``--plies`` random legal moves each, seeded) through ``actions.play_move``
with the push held back, and records what each action handed
``push.match_changed`` (the match, its seats, the new moves, the states
after and before, the seats whose controls changed). Then it renders all of
those changes again ``--repeats`` times (after one unmeasured), sending nothing
(``push.collect``), and prints the CPU time per change (milliseconds) of
each repeat and their median. No server, socket or Redis is involved: this
is the render part of live.py's per-move cost, measured with less noise, for
comparing two commits run one after the other on the same machine
(docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import time
from pathlib import Path
from unittest import mock

from benchmarks import live
from benchmarks import live_services as services

BENCH_DIR = Path(__file__).resolve().parent.parent / "var" / "bench-renders"


def record_changes(matches: int, plies: int, seed: int) -> list[tuple[tuple, dict]]:
    """Play the matches; [(args, kwargs)] of every ``push.match_changed`` call, in order."""
    from games import actions, push, tasks
    from games.engine import get_rules
    from games.models import Match

    rules = get_rules("ludo")
    rng = random.Random(seed)
    calls: list[tuple[tuple, dict]] = []
    with mock.patch.object(push, "match_changed", lambda *a, **k: calls.append((a, k))), \
            mock.patch.object(tasks.expire_turn, "apply_async", lambda *a, **k: None):
        for players in live.make_groups(matches):
            users = {u.pk: u for u, _ in players}
            public_id = live.make_match(players).key
            for _ in range(plies):
                match = Match.objects.get(public_id=public_id)
                state = rules.load(match.state)
                seat = rules.to_move(state)
                if seat is None or match.status != Match.Status.ACTIVE:
                    break
                move = rng.choice(rules.legal_moves(state))
                user = users[match.seats.get(index=seat).user_id]
                actions.play_move(public_id, user, str(move), match.version)
    return calls


def time_renders(calls, repeats: int) -> list[float]:
    """CPU milliseconds per change of rendering ``calls`` again, once per repeat."""
    from games import push

    render = push.match_changed
    runs = []
    for _ in range(repeats + 1):  # the first, unmeasured, fills the per-process caches
        t = time.process_time()
        for args, kwargs in calls:
            with push.collect():
                render(*args, **kwargs)
        runs.append(1000 * (time.process_time() - t) / len(calls))
    return runs[1:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=12, help="four-seat Ludo matches (default 12)")
    parser.add_argument("--plies", type=int, default=60, help="random moves per match (default 60)")
    parser.add_argument("--repeats", type=int, default=7, help="times every change is rendered (default 7)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the move choices")
    args = parser.parse_args()
    if BENCH_DIR.exists():
        shutil.rmtree(BENCH_DIR)
    BENCH_DIR.mkdir(parents=True)
    try:
        env = services.server_env(BENCH_DIR / "redis.sock", f"sqlite:///{BENCH_DIR / 'db.sqlite3'}")
        services.migrate(env)
        live.setup_django(dict(env, DATABASE_POOL="0"))
        calls = record_changes(args.matches, args.plies, args.seed)
        runs = time_renders(calls, args.repeats)
        print(f"bench-renders: {len(calls)} changes of {args.matches} four-seat Ludo matches, "
              f"rendered {args.repeats} times (CPU ms per change; {os.cpu_count()} cores)")
        print("  repeats: " + ", ".join(f"{r:.3f}" for r in runs))
        print(f"  median {statistics.median(runs):.3f}  min {min(runs):.3f}")
    finally:
        shutil.rmtree(BENCH_DIR, ignore_errors=True)


if __name__ == "__main__":
    main()
