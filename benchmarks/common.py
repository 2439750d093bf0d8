"""Shared pieces of the benchmarks: the machine description, seeded matches
and a confidence interval."""

from __future__ import annotations

import math
import os
import platform
import random
import subprocess
import time

from games.bots import choose_move
from games.engine import CHANCE, get_rules
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
