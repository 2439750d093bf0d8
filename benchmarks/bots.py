"""Bot strength: each level against the one below, two-player matches with
mirrored deals (each deal of dice played from both seats), win rate with a
95% Wilson confidence interval. Uses every core.

Run: ``.venv/bin/python -m benchmarks.bots [--deals N] [--iterations I | --budget-ms MS]``.
Strong's budget defaults to a fixed 2000 search nodes (repeatable), or the
game's own count in ``GAME_ITERATIONS`` (Rondo: simulated turns, each far
dearer than a node); ``--budget-ms`` uses a time budget instead.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from functools import partial

from games.bots import GAMES, LEVELS

from .engine import bot_match, machine, wilson

#: Strong's default fixed budget per game where 2000 nodes is not the unit.
GAME_ITERATIONS = {"rondo": 200}


def play_deal(deal: int, kind: str, strong: str, weak: str, budget_ms, iterations) -> tuple[float, int]:
    """Points of ``strong`` over the deal played from both seats (1 per win)."""
    points = 0.0
    for levels, seat in (((strong, weak), 0), ((weak, strong), 1)):
        outcome = bot_match(kind, levels, deal, budget_ms=budget_ms, iterations=iterations)
        points += outcome.ranks[seat] == 1
    return points, 2


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=200, help="deals per pairing (matches = 2 x deals)")
    parser.add_argument(
        "--iterations", type=int, help="strong's search nodes per decision (default 2000; GAME_ITERATIONS)"
    )
    parser.add_argument("--budget-ms", type=float, help="strong's time budget in ms (instead of nodes)")
    parser.add_argument("--processes", type=int, help="worker processes (default: all cores)")
    parser.add_argument("--games", nargs="*", default=list(GAMES), help="games to pit (default: all)")
    args = parser.parse_args(argv)
    iterations = None if args.budget_ms is not None else (args.iterations or 2000)
    if iterations is None:
        budget = f"{args.budget_ms:g} ms per decision"
    else:
        budget = f"{iterations} nodes per decision"
        if args.iterations is None and GAME_ITERATIONS:
            budget += " (" + ", ".join(f"{k} {v}" for k, v in GAME_ITERATIONS.items()) + ")"
    print(f"Machine: {machine()}")
    print(f"Strong's budget: {budget}; {args.deals} deals x 2 seats per pairing")
    print(f"{'game':<8} {'pairing':<18} {'matches':>7} {'win rate':>8} {'95% CI':>16} {'seconds':>8}")
    with multiprocessing.Pool(args.processes) as pool:
        for kind in [g for g in GAMES if g in args.games]:
            for weak, strong in zip(LEVELS, LEVELS[1:], strict=False):
                start = time.perf_counter()
                job = partial(play_deal, kind=kind, strong=strong, weak=weak)
                its = iterations
                if its is not None and args.iterations is None:
                    its = GAME_ITERATIONS.get(kind, its)
                job = partial(job, budget_ms=args.budget_ms, iterations=its)
                results = pool.map(job, range(args.deals), chunksize=4)
                wins = sum(p for p, _ in results)
                n = sum(m for _, m in results)
                low, high = wilson(wins, n)
                verdict = "above 50%" if low > 0.5 else "NOT above 50%"
                print(
                    f"{kind:<8} {strong + ' v ' + weak:<18} {n:>7} {wins / n:>8.1%} "
                    f"[{low:6.1%}, {high:6.1%}] {time.perf_counter() - start:>8.0f}  {verdict}"
                )


if __name__ == "__main__":
    main()
