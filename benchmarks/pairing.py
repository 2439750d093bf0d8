"""Pairing speed, and the simulation behind the window numbers.

Run: ``.venv/bin/python -m benchmarks.pairing [--repeat R] [--minutes M]``
(``make bench-pairing``).

1. Speed: ``matchmaking.queue.pairing.pair`` over 10,000 waiting players (ratings
   normal around 1500, sd 300; waits uniform 0..60 s), tables of 2, 3 and 4,
   plus a hard case (every other player has just come, window 100, among
   players who waited long). Target: under 200 ms.
2. Tuning: a queue simulated in 2-second waves (the Celery beat period) with
   players arriving at random (Poisson) at a few rates, ratings normal
   around 1500 (sd 300), for several window schedules (start, +step every
   10 s, cap). Reports the median and 90th-percentile wait and the median
   and 90th-percentile table spread. Pure function, no database.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from benchmarks.engine import machine
from matchmaking.queue import pairing
from matchmaking.queue.pairing import Waiting, pair

N = 10_000


def timed(players, size, repeat):
    times = []
    tables = 0
    for _ in range(repeat):
        t = time.perf_counter()
        tables = len(pair(players, size))
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), max(times), tables


def speed(repeat: int) -> None:
    rng = random.Random(5)
    print(f"Pairing {N:,} waiting players, {repeat} runs each ({machine()})\n")
    print("| case | table | tables | median ms | worst ms |")
    print("|------|------:|-------:|----------:|---------:|")
    for size in (2, 3, 4):
        normal = [Waiting(i, rng.gauss(1500, 300), rng.uniform(0, 60)) for i in range(N)]
        hard = [Waiting(i, rng.gauss(1500, 300), 0.0 if i % 2 else 120.0) for i in range(N)]
        for name, players in (("ratings N(1500, 300), waits 0-60 s", normal),
                              ("half just came, half waited 120 s", hard)):
            med, worst, tables = timed(players, size, repeat)
            print(f"| {name} | {size} | {tables:,} | {med:.1f} | {worst:.1f} |")


def simulate(schedule, rate: float, size: int, minutes: float, seed: int = 1):
    """(waits, spreads) of one simulated queue: ``rate`` arrivals per second."""
    start, step, cap = schedule
    saved = pairing.WINDOW_START, pairing.WINDOW_STEP, pairing.WINDOW_MAX
    pairing.WINDOW_START, pairing.WINDOW_STEP, pairing.WINDOW_MAX = start, step, cap
    try:
        rng = random.Random(seed)
        waiting: dict[int, tuple[float, float]] = {}  # id -> (rating, arrived)
        waits, spreads = [], []
        now, next_id, wave = 0.0, 0, 2.0
        end = minutes * 60
        while now < end:
            now += wave
            for _ in range(_poisson(rng, rate * wave)):
                waiting[next_id] = (rng.gauss(1500, 300), now - rng.uniform(0, wave))
                next_id += 1
            tables = pair([Waiting(k, r, now - t) for k, (r, t) in waiting.items()], size)
            for table in tables:
                ratings = [waiting[k][0] for k in table]
                spreads.append(max(ratings) - min(ratings))
                for k in table:
                    waits.append(now - waiting.pop(k)[1])
        return waits, spreads
    finally:
        pairing.WINDOW_START, pairing.WINDOW_STEP, pairing.WINDOW_MAX = saved


def _poisson(rng: random.Random, mean: float) -> int:
    count, total = 0, rng.expovariate(1.0)
    while total < mean:
        count += 1
        total += rng.expovariate(1.0)
    return count


def pct(values, q):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def tuning(minutes: float) -> None:
    schedules = [(50, 25, 400), (100, 50, 600), (150, 50, 600), (100, 100, 800), (200, 0, 200)]
    print(f"\nSimulated queues, {minutes:g} minutes each, waves every 2 s\n")
    print("| arrivals/min | table | window (start, +step/10 s, cap) | tables | wait median s | "
          "wait p90 s | spread median | spread p90 |")
    print("|---:|---:|---|---:|---:|---:|---:|---:|")
    for per_minute in (2, 10, 60):
        for size in (2, 4):
            for schedule in schedules:
                waits, spreads = simulate(schedule, per_minute / 60, size, minutes)
                print(f"| {per_minute} | {size} | {schedule} | {len(spreads)} | "
                      f"{pct(waits, .5):.0f} | {pct(waits, .9):.0f} | "
                      f"{pct(spreads, .5):.0f} | {pct(spreads, .9):.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--minutes", type=float, default=120.0)
    args = parser.parse_args()
    speed(args.repeat)
    tuning(args.minutes)


if __name__ == "__main__":
    main()
