"""Ludo computer players.

Each level sees only what a human in its seat sees: the seat's view and its
legal moves (docs/rules.md "Computer players"). It rebuilds a state from the view
with ``rules.sample_state`` (exact in Ludo) and never reads the real state.

- easy: a uniformly random legal move.
- normal: a one-move heuristic: capture, bring a piece home, enter on a 6,
  move a piece out of danger, reach a safe cell, avoid danger.
- strong: expectimax over the dice (chance outcomes averaged, its own choices
  maximised, opponents modelled by the normal heuristic), deepened one chance
  step at a time while the budget (time in ms, or a node count) allows, with a
  positional evaluation at the leaves.
"""

from __future__ import annotations

import random
import time

from games.engine import CHANCE, get_rules
from games.ludo.engine.board import BASE, CELL, HOME, RING_LAST, SAFE_CELLS, SEAT_COLOURS
from games.ludo.engine.moves import DIE, ROLL
from games.ludo.engine.state import LudoState

RULES = get_rules("ludo")
DEFAULT_BUDGET_MS = 200.0
DIE_OUTCOMES = DIE[1:]

#: REACH[c][q]: the ring cells a piece of colour c at progress q (0..50) can
#: land on with one die (never into its home lane).
REACH = tuple(
    tuple(tuple(CELL[c][q + d] for d in range(1, 7) if q + d <= RING_LAST) for q in range(RING_LAST + 1))
    for c in range(4)
)


def threats(state: LudoState) -> list[list[int]]:
    """``threats[s][cell]``: how many pieces of seats other than ``s`` can
    land on ring ``cell`` (0..51) with one die."""
    n = state.players
    colours = SEAT_COLOURS[n]
    per_seat = []
    for s in range(n):
        counts = [0] * 52
        reach = REACH[colours[s]]
        for p in state.pieces[4 * s : 4 * s + 4]:
            if 0 <= p <= RING_LAST:
                for cell in reach[p]:
                    counts[cell] += 1
        per_seat.append(counts)
    if n == 2:
        return [per_seat[1], per_seat[0]]
    total = [sum(col) for col in zip(*per_seat, strict=True)]
    return [[t - own for t, own in zip(total, per_seat[s], strict=True)] for s in range(n)]


# -- normal ----------------------------------------------------------------
def score_move(state: LudoState, piece: int, danger: list[int]) -> float:
    """Heuristic value of moving ``piece`` of the seat to move (normal level)."""
    seat = state.turn
    colours = SEAT_COLOURS[state.players]
    colour = colours[seat]
    p = state.pieces[4 * seat + piece]
    to = 0 if p == BASE else p + state.die
    score = to * 0.1
    if p == BASE:
        score += 50
    elif p <= RING_LAST:
        cell = CELL[colour][p]
        if cell not in SAFE_CELLS and danger[cell]:
            score += 30 + p * 0.3  # the piece is in danger: move it
    if to == HOME:
        return score + 60
    if to > RING_LAST:
        return score + 40 if p <= RING_LAST else score + 5
    cell = CELL[colour][to]
    if cell in SAFE_CELLS:
        return score + 15
    for other in range(state.players):
        if other == seat:
            continue
        for q in state.pieces[4 * other : 4 * other + 4]:
            if 0 <= q <= RING_LAST and CELL[colours[other]][q] == cell:
                score += 100 + q
    if danger[cell]:
        score -= 40 + to * 0.3
    return score


def normal_move(state: LudoState):
    """The normal level's choice among ``state.legal`` (``roll`` at a roll)."""
    legal = state.legal
    if len(legal) == 1:
        return legal[0]
    danger = threats(state)[state.turn]
    best, best_score = legal[0], -1e9
    for move in legal:
        s = score_move(state, move.value, danger)
        if s > best_score:
            best, best_score = move, s
    return best


# -- strong ------------------------------------------------------------------
WIN = 10_000.0


def seat_value(state: LudoState, seat: int, danger: list[int]) -> float:
    """Positional value of one seat: progress, safety, and the expected loss
    of pieces standing where an opponent can land with one die."""
    colour = SEAT_COLOURS[state.players][seat]
    value = 0.0
    for p in state.pieces[4 * seat : 4 * seat + 4]:
        if p == BASE:
            continue
        if p == HOME:
            value += 90
        elif p > RING_LAST:
            value += 20 + p + 8
        else:
            worth = 20 + p
            cell = CELL[colour][p]
            if cell in SAFE_CELLS:
                value += worth + 2
            else:
                t = danger[cell]
                value += worth * (1 - min(0.9, t * 0.2)) if t else worth
    return value


def evaluate(state: LudoState, me: int) -> float:
    """How good ``state`` is for seat ``me``: its value minus the best
    opponent's (a win or loss is +-WIN)."""
    if state.actor is None:
        return WIN if state.winner == me else -WIN
    danger = threats(state)
    mine = seat_value(state, me, danger[me])
    rivals = [s for s in range(state.players) if s != me and s not in state.left]
    others = [seat_value(state, s, danger[s]) for s in rivals]
    return mine - max(others)


class _OutOfBudget(Exception):
    pass


class Expectimax:
    """Depth-limited expectimax for seat ``me``; depth counts chance steps."""

    def __init__(self, me: int, max_nodes: int | None, deadline: float | None):
        self.me = me
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = 0

    def _tick(self):
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _OutOfBudget
        if self.deadline is not None and self.nodes % 64 == 0 and time.perf_counter() > self.deadline:
            raise _OutOfBudget

    def value(self, state: LudoState, depth: int) -> float:
        self._tick()
        actor = state.actor
        if actor is None:
            return WIN if state.winner == self.me else -WIN
        if actor == CHANCE:
            if depth == 0:
                return evaluate(state, self.me)
            total = 0.0
            for outcome in DIE_OUTCOMES:
                total += self.value(RULES.play(state, outcome), depth - 1)
            return total / 6
        if state.phase == "roll":
            return self.value(RULES.play(state, ROLL), depth)
        if actor == self.me:
            return max(self.value(RULES.play(state, m), depth) for m in distinct_moves(state))
        return self.value(RULES.play(state, normal_move(state)), depth)


def distinct_moves(state: LudoState):
    """Legal piece moves, one per distinct resulting position."""
    seen = set()
    out = []
    base = 4 * state.turn
    for m in state.legal:
        p = state.pieces[base + m.value]
        if p not in seen:
            seen.add(p)
            out.append(m)
    return out


def strong_move(state: LudoState, rng: random.Random, budget_ms: float | None, iterations: int | None):
    """The strong level's choice: iterative deepening expectimax within the
    budget (``iterations``: node count, repeatable; else ``budget_ms``)."""
    moves = distinct_moves(state) if state.phase == "move" else list(state.legal)
    if len(moves) == 1:
        return moves[0]
    deadline = None
    if iterations is None:
        budget = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
        # Stop searching at 80% of the budget, leaving room to answer.
        deadline = time.perf_counter() + budget / 1000 * 0.8
    search = Expectimax(state.turn, iterations, deadline)
    order = moves[:]
    rng.shuffle(order)
    best = normal_move(state)
    for depth in range(1, 6):
        try:
            scored = [(search.value(RULES.play(state, m), depth), i, m) for i, m in enumerate(order)]
        except _OutOfBudget:
            break
        best = max(scored, key=lambda t: (t[0], -t[1]))[2]
    return best


def choose(level: str, view: dict, seat: int, legal: list, rng: random.Random, budget_ms, iterations):
    """One Ludo decision for ``seat``; returns an element of ``legal``."""
    if level == "easy" or len(legal) == 1:
        return rng.choice(legal)
    state = RULES.sample_state(view, seat, rng)
    if state.actor != seat:
        raise ValueError(f"seat {seat} is not to move in this view")
    if level == "normal":
        move = normal_move(state)
    else:
        move = strong_move(state, rng, budget_ms, iterations)
    for candidate in legal:
        if str(candidate) == str(move):
            return candidate
    raise ValueError(f"bot chose {move}, which is not among the legal moves given")
