"""Engine speed: random-play plies and playouts per second on one core, per
game and player count, and each bot level's decision time.

Run: ``.venv/bin/python -m benchmarks.engine [--seconds S] [--decisions N]``.
A ply is to_move + legal_moves (or chance_outcomes) + play.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from games.bots import GAMES, LEVELS
from games.engine import CHANCE, available_games, get_rules

from .common import bot_match, machine


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
    args = parser.parse_args(argv)
    print(f"Machine: {machine()}")
    print("\nRandom play, one core:")
    print(f"{'game':<10} {'players':>7} {'plies/s':>10} {'playouts/s':>11}")
    for kind in available_games():
        for players in get_rules(kind).player_counts:
            plies, playouts = random_play(kind, players, args.seconds)
            print(f"{kind:<10} {players:>7} {plies:>10,.0f} {playouts:>11,.1f}")
    print(f"\nBot decision times (2 players, decisions with a choice; strong budget {args.budget_ms:g} ms):")
    print(f"{'game':<10} {'level':<8} {'decisions':>9} {'median ms':>10} {'worst ms':>9}")
    for kind in GAMES:
        for level in LEVELS:
            times = decision_times(kind, level, args.decisions, args.budget_ms)
            median, worst = statistics.median(times) * 1000, max(times) * 1000
            print(f"{kind:<10} {level:<8} {len(times):>9} {median:>10.3f} {worst:>9.3f}")


if __name__ == "__main__":
    main()
