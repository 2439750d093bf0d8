"""The frames of a move, rendered alone: what ``push.match_changed`` costs.

Run: ``.venv/bin/python -m benchmarks.renders [--games ludo,roundabout,rondo]
[--matches N] [--plies N] [--repeats N]`` (``make bench-renders``).

It migrates a fresh SQLite file under ``var/bench-renders/`` with production
settings and, for each game of ``--games`` (default: Ludo alone), plays
``--matches`` four-seat matches of logged-in users (``--plies`` random legal
moves each, one a change, seeded) through ``actions.play_move`` with the push
held back, and records what each action handed ``push.match_changed`` (the
match, its seats, the new moves, the states after and before, the seats
whose controls changed). Then it renders all of those changes again
``--repeats`` times (after one unmeasured), sending nothing
(``push.collect``), each time as a process that sent every version before
(games.frames.wire: updates, not whole frames), and prints the CPU time per change
(milliseconds) of each repeat and their median, and the size of the public
update every socket of the match gets (bytes, UTF-8; a match's first change
is left out: this process sent no frame before it). No server, socket or
Redis is involved: this is the render part of live.py's per-move cost, measured with less noise, for
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

from benchmarks import live, live_django
from benchmarks import live_services as services

BENCH_DIR = Path(__file__).resolve().parent.parent / "var" / "bench-renders"


def record_changes(matches: int, plies: int, seed: int, game: str = "ludo") -> list[tuple[tuple, dict]]:
    """Play the matches; [(args, kwargs)] of every ``push.match_changed`` call, in order."""
    from games import actions, push, tasks
    from games.engine import get_rules
    from games.models import Match

    rules = get_rules(game)
    rng = random.Random(seed)
    calls: list[tuple[tuple, dict]] = []
    with mock.patch.object(push, "match_changed", lambda *a, **k: calls.append((a, k))), \
            mock.patch.object(tasks.expire_turn, "apply_async", lambda *a, **k: None):
        for players in live.make_groups(matches):
            users = {u.pk: u for u, _ in players}
            match = actions.create_match(game, [actions.SeatSpec(user=u) for u, _ in players],
                                         turn_seconds=live_django.TURN_SECONDS)
            actions.start_match(match.public_id)
            public_id = match.public_id
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


def time_renders(calls, repeats: int) -> tuple[list[float], list[int]]:
    """CPU milliseconds per change of rendering ``calls`` again, once per
    repeat; and the public update's bytes of each change but a match's first."""
    from games import push
    from games.frames import wire

    render = push.match_changed
    runs, sizes = [], []
    for repeat in range(repeats + 1):  # the first, unmeasured, fills the per-process caches
        wire._sent.clear()  # each repeat sends every version anew, as a live process does
        t = time.process_time()
        for args, kwargs in calls:
            with push.collect() as sent:
                render(*args, **kwargs)
            if not repeat and args[0].version > 1:
                group = push.match_group(args[0].public_id)
                sizes.extend(len(e["html"].encode()) for g, e in sent if g == group)
        runs.append(1000 * (time.process_time() - t) / len(calls))
    return runs[1:], sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="ludo", help="comma-separated games (default ludo)")
    parser.add_argument("--matches", type=int, default=12, help="four-seat matches a game (default 12)")
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
        live_django.setup_django(dict(env, DATABASE_POOL="0"))
        for game in args.games.split(","):
            calls = record_changes(args.matches, args.plies, args.seed, game)
            runs, sizes = time_renders(calls, args.repeats)
            print(f"bench-renders: {len(calls)} changes of {args.matches} four-seat {game} matches, "
                  f"rendered {args.repeats} times (CPU ms per change; {os.cpu_count()} cores)")
            print("  repeats: " + ", ".join(f"{r:.3f}" for r in runs))
            print(f"  median {statistics.median(runs):.3f}  min {min(runs):.3f}")
            print(f"  public update per socket: median {statistics.median(sizes):,.0f} B, "
                  f"mean {statistics.mean(sizes):,.0f} B, largest {max(sizes):,} B ({len(sizes)} updates)")
    finally:
        shutil.rmtree(BENCH_DIR, ignore_errors=True)


if __name__ == "__main__":
    main()
