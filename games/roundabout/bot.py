"""Roundabout computer players.

Each level sees only what a human in its seat sees: the seat's view and its
legal moves (docs/rules.md "Computer players"). It rebuilds the state from the view
with ``rules.sample_state`` (exact: Roundabout hides nothing) and never reads
the real state.

- easy: a uniformly random legal move.
- normal: a one-ply heuristic: each legal choice is played and the position
  after it valued (darts off the board, progress towards the opposite
  territory and then home, blocks, captured darts on either side, ringer
  runs building up); the best is taken. It never offers its roll and always
  accepts an offer.
- strong: plans whole turns (both dice, or both reversals) and values the
  position at the end of each; within the budget (time in ms, or a node
  count) it then averages the best plans over the next seat's 21 distinct
  rolls, that seat answering with the normal heuristic.
"""

from __future__ import annotations

import random
import time

from games.engine import CHANCE, get_rules
from games.roundabout.engine.board import CW, NEIGHBOURS, SEAT_TERRITORIES, darts_per_seat
from games.roundabout.engine.moves import ACCEPT, DICE, ROLL
from games.roundabout.engine.state import RoundaboutState, captures, occupancy

RULES = get_rules("roundabout")
DEFAULT_BUDGET_MS = 200.0
WIN = 10_000.0

#: STEPS_TO[territory][bar][0 cw / 1 ccw]: ring steps from ``bar`` to the
#: nearest bar of ``territory`` going that way (0 when already there).
STEPS_TO = tuple(
    tuple(
        tuple(min(((tb - bar) * step) % 16 for tb in range(4 * t, 4 * t + 4)) for step in (1, -1))
        for bar in range(16)
    )
    for t in range(4)
)

#: The 21 distinct rolls (the player picks the order of the dice) with their
#: weights out of 36, as ``(dice move, weight)``.
DISTINCT_ROLLS = tuple((m, 1 if m.die == m.second else 2) for m in DICE if m.die <= m.second)


# -- the position value ---------------------------------------------------------
def seat_value(state: RoundaboutState, seat: int, occ: list[int], caught) -> float:
    """How well ``seat`` stands: darts off the board are worth most; a dart
    that has made its circuit is worth more the nearer home it faces, one
    that has not the nearer the opposite territory; blocks and ringer runs
    add, captured darts subtract."""
    players = state.players
    n = darts_per_seat(players)
    t = SEAT_TERRITORIES[players][seat]
    opposite = (t + 2) % 4
    value = 0.0
    rings = {}
    base = seat * n
    pos, face, circuit = state.pos, state.face, state.circuit
    for idx in range(base, base + n):
        s = pos[idx]
        if s < 0:
            value += 60
            continue
        bar = s % 16
        fi = 0 if face[idx] == CW else 1
        if circuit[idx]:
            value += 20 + 16 - STEPS_TO[t][bar][fi]
        else:
            value += 16 - STEPS_TO[opposite][bar][fi]
            if bar // 4 == opposite:
                rings[s // 16] = rings.get(s // 16, 0) + 1
        if caught[idx]:
            value -= 14
        for u in NEIGHBOURS[s]:
            if occ[u] == seat:
                value += 1.5
                break
    for count in rings.values():
        if count >= 2:
            value += 3 * count * count
    return value


def evaluate(state: RoundaboutState, me: int) -> float:
    """Value of ``state`` for seat ``me``: its value minus the best opponent's
    (a finished match is +-WIN, or by rank when it ended stalled)."""
    if state.actor is None:
        outcome = RULES.outcome(state)
        best = min(outcome.ranks)
        return WIN if outcome.ranks[me] == best else -WIN
    n = darts_per_seat(state.players)
    occ = occupancy(state.pos, n)
    caught = captures(state.pos, n, state.players)
    mine = seat_value(state, me, occ, caught)
    others = [
        seat_value(state, s, occ, caught) for s in range(state.players) if s != me and s not in state.left
    ]
    return mine - max(others) if others else mine


# -- normal ------------------------------------------------------------------------
def normal_move(state: RoundaboutState):
    """The normal level's choice among ``state.legal``."""
    legal = state.legal
    if len(legal) == 1:
        return legal[0]
    if state.phase == "offer":
        return ACCEPT
    if state.phase == "roll":
        return ROLL
    me = state.actor
    best, best_value = legal[0], -1e18
    for move in legal:
        if move.kind == "offer":
            continue
        value = evaluate(RULES.play(state, move), me)
        if value > best_value:
            best, best_value = move, value
    return best


# -- strong ------------------------------------------------------------------------
class _OutOfBudget(Exception):
    pass


class _Budget:
    def __init__(self, max_nodes: int | None, deadline: float | None):
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = 0

    def tick(self, k: int = 1):
        self.nodes += k
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _OutOfBudget
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _OutOfBudget


def _turn_ends(state: RoundaboutState, me: int, budget: _Budget):
    """Every (first move, state at the end of ``me``'s turn) reachable by
    ``me``'s own choices, offers left out."""
    out = []
    for move in state.legal:
        if move.kind == "offer":
            continue
        budget.tick()
        nxt = RULES.play(state, move)
        if nxt.actor == me and nxt.phase == "move":
            for move2 in nxt.legal:
                budget.tick()
                out.append((move, RULES.play(nxt, move2)))
        else:
            out.append((move, nxt))
    return out


def _reply_value(state: RoundaboutState, me: int, budget: _Budget) -> float:
    """The expected value for ``me`` after the next seat's roll, that seat
    answering with the normal heuristic."""
    if state.actor is None or state.phase != "roll":
        return evaluate(state, me)
    rolled = RULES.play(state, ROLL)
    total = 0.0
    for dice, weight in DISTINCT_ROLLS:
        s = RULES.play(rolled, dice)
        while s.actor not in (None, CHANCE) and s.phase in ("move", "offer") and s.actor != me:
            budget.tick(len(s.legal) + 1)
            s = RULES.play(s, normal_move(s))
        total += weight * evaluate(s, me)
    return total / 36


def strong_move(state: RoundaboutState, rng: random.Random, budget_ms: float | None, iterations: int | None):
    """The strong level's choice: whole-turn plans valued statically, the best
    few then by the next seat's replies, within the budget (``iterations``:
    node count, repeatable; else ``budget_ms``)."""
    if state.phase != "move":
        return normal_move(state)
    me = state.actor
    deadline = None
    if iterations is None:
        budget_s = (DEFAULT_BUDGET_MS if budget_ms is None else budget_ms) / 1000
        deadline = time.perf_counter() + budget_s * 0.8  # leave room to answer
    budget = _Budget(iterations, deadline)
    best = normal_move(state)
    try:
        ends = _turn_ends(state, me, budget)
    except _OutOfBudget:
        return best
    scored = {}
    for first, end in ends:
        value = evaluate(end, me)
        if first not in scored or value > scored[first][0]:
            scored[first] = (value, end)
    order = list(scored)
    rng.shuffle(order)  # ties break by the bot's own RNG
    order.sort(key=lambda m: -scored[m][0])
    best = order[0]
    top = order[:3]
    try:
        refined = [(_reply_value(scored[m][1], me, budget), i, m) for i, m in enumerate(top)]
    except _OutOfBudget:
        return best
    return max(refined, key=lambda t: (t[0], -t[1]))[2]


def choose(level: str, view: dict, seat: int, legal: list, rng: random.Random, budget_ms, iterations):
    """One Roundabout decision for ``seat``; returns an element of ``legal``."""
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
