"""Engine speed: random-play plies and playouts per second on one core, per
game and player count, and each bot level's decision time.

Run: ``.venv/bin/python -m benchmarks.engine [--seconds S] [--decisions N]``.
A ply is to_move + legal_moves (or chance_outcomes) + play.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import statistics
import subprocess
import time

from games.bots import GAMES, LEVELS, choose_move
from games.engine import CHANCE, available_games, get_rules
from games.engine.fair import draw


def machine() -> str:
    """'<cores> cores, <CPU model>, Python <version>' for the report."""
    model = platform.processor() or "unknown CPU"
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        lines = out.splitlines()
        model = next(line.split(":", 1)[1].strip() for line in lines if line.startswith("Model name"))
    except (OSError, StopIteration):
        pass
    return f"{os.cpu_count()} cores (nproc), {model}, Python {platform.python_version()}"


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a win rate of ``wins`` out of ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def bot_match(kind: str, levels: tuple[str, ...], deal: int, budget_ms=None, iterations=None, timings=None):
    """Play one match between bots of ``levels`` (one per seat). Chance
    outcomes come from the fair draw with a seed fixed by ``deal``, numbered by
    chance step, so the same deal with the seats swapped meets the same dice.
    Returns the outcome; appends (level, seconds) per decision with a choice
    to ``timings`` if given."""
    rules = get_rules(kind)
    seed = deal.to_bytes(32, "big")
    rngs = [random.Random(deal * 10 + s) for s in range(len(levels))]
    state = rules.new_match(len(levels))
    while (who := rules.to_move(state)) is not None:
        if who == CHANCE:
            outcomes = rules.chance_outcomes(state)
            move = outcomes[draw(seed, "bench", rules.chance_count(state), [w for _, w in outcomes])][0]
        else:
            legal = rules.legal_moves(state)
            start = time.perf_counter()
            move = choose_move(
                kind, levels[who], rules.view(state, who), who, legal, rngs[who], budget_ms, iterations
            )
            if timings is not None and len(legal) > 1:
                timings.append((levels[who], time.perf_counter() - start))
        state = rules.play(state, move)
    return rules.outcome(state)


def random_play(kind: str, players: int, seconds: float) -> tuple[float, float]:
    """(plies per second, playouts per second) of uniformly random play."""
    rules = get_rules(kind)
    rng = random.Random(1)
    rand = rng.random
    plies = playouts = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = rules.new_match(players)
        while True:
            who = rules.to_move(state)
            if who is None:
                break
            if who == CHANCE:
                outcomes = rules.chance_outcomes(state)
                r = rand() * sum(w for _, w in outcomes)
                i = 0
                while i < len(outcomes) - 1 and r >= outcomes[i][1]:
                    r -= outcomes[i][1]
                    i += 1
                move = outcomes[i][0]
            else:
                moves = rules.legal_moves(state)
                move = moves[int(rand() * len(moves))]
            state = rules.play(state, move)
            plies += 1
        playouts += 1
    elapsed = time.perf_counter() - start
    return plies / elapsed, playouts / elapsed


def decision_times(kind: str, level: str, decisions: int, budget_ms: float | None) -> list[float]:
    """Seconds per decision (decisions with more than one legal move) of
    ``level`` playing seat 0 against normal in two-player matches."""
    timings: list[tuple[str, float]] = []
    deal = 0
    while sum(1 for lv, _ in timings if lv == level) < decisions:
        opponents = (level, "normal") if level != "normal" else (level, "easy")
        bot_match(kind, opponents, 50_000 + deal, budget_ms=budget_ms, timings=timings)
        deal += 1
    return [t for lv, t in timings if lv == level][:decisions]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of random play per row")
    parser.add_argument("--decisions", type=int, default=200, help="bot decisions timed per level")
    parser.add_argument("--budget-ms", type=float, default=200.0, help="strong level's time budget")
    parser.add_argument("--games", nargs="*", help="games to measure (default: all)")
    args = parser.parse_args(argv)
    print(f"Machine: {machine()}")
    print("\nRandom play, one core:")
    print(f"{'game':<10} {'players':>7} {'plies/s':>10} {'playouts/s':>11}")
    for kind in [g for g in available_games() if args.games is None or g in args.games]:
        for players in get_rules(kind).player_counts:
            plies, playouts = random_play(kind, players, args.seconds)
            print(f"{kind:<10} {players:>7} {plies:>10,.0f} {playouts:>11,.1f}")
    print(f"\nBot decision times (2 players, decisions with a choice; strong budget {args.budget_ms:g} ms):")
    print(f"{'game':<10} {'level':<8} {'decisions':>9} {'median ms':>10} {'worst ms':>9}")
    for kind in [g for g in GAMES if args.games is None or g in args.games]:
        for level in LEVELS:
            times = decision_times(kind, level, args.decisions, args.budget_ms)
            median, worst = statistics.median(times) * 1000, max(times) * 1000
            print(f"{kind:<10} {level:<8} {len(times):>9} {median:>10.3f} {worst:>9.3f}")


if __name__ == "__main__":
    main()
