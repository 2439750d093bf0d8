"""Arena pairing speed and the repeats it leaves.

Run: ``.venv/bin/python -m benchmarks.arena_pairing [--repeat R]``.

For n in 500, 1,000, 2,000 and 4,000 free players and tables of 2, 3 and 4:
ratings normal around 1500 (sd 300), times free uniform 0..60 s. The pool is
paired once without last opponents; then half the players (every other one)
get the opponents of their table in that pairing as ``last_opponents``, new
times free are drawn, and ``arenas.pairing.pair`` is timed on that pool
(``time.perf_counter``, the median of R runs, 7 by default). Reported: the
tables, the repeats the plain rating cut would have (``avoid_repeats=False``)
and the repeats left (``arenas.pairing.repeats`` over the last opponents the
players were given). Target (README "Arenas"): 2,000 players well under
50 ms. Pure function, no database.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from arenas.pairing import Free, pair, repeats
from benchmarks.engine import machine

SIZES = (500, 1_000, 2_000, 4_000)
SEATS = (2, 3, 4)


def pool(n: int, size: int, rng: random.Random) -> list[Free]:
    """``n`` free players, every other one with last opponents from a previous
    pairing of the same players."""
    first = [Free(i, rng.gauss(1500, 300), rng.uniform(0, 60)) for i in range(n)]
    met = {k: frozenset(t) - {k} for t in pair(first, size) for k in t}
    none: frozenset = frozenset()
    return [Free(p.key, p.rating, rng.uniform(0, 60), met.get(p.key, none) if p.key % 2 else none)
            for p in first]


def timed(free: list[Free], size: int, repeat: int) -> tuple[float, list[tuple]]:
    times, tables = [], []
    for _ in range(repeat):
        t = time.perf_counter()
        tables = pair(free, size)
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(5)
    print(f"Arena pairing, median of {args.repeat} runs ({machine()})\n")
    print("| n | table | median ms | tables | repeats in the plain cut | repeats left |")
    print("|--:|------:|----------:|-------:|-------------------------:|-------------:|")
    for n in SIZES:
        for size in SEATS:
            free = pool(n, size, rng)
            last = {p.key: p.last_opponents for p in free}
            med, tables = timed(free, size, args.repeat)
            plain = repeats(pair(free, size, avoid_repeats=False), last)
            print(f"| {n:,} | {size} | {med:.1f} | {len(tables):,} | {plain:,} | {repeats(tables, last):,} |")


if __name__ == "__main__":
    main()
