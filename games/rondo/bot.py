"""Rondo computer players.

Each level sees only what a human in its seat sees: the seat's view and its
legal moves (docs/rules.md "Computer players"). A bot never reads the real state:
it rebuilds one with ``rules.sample_state(view, seat, rng)``, in which the
tiles it cannot see (other racks, others' face-down tiles, the bag) are dealt
at random from the tiles not in sight.

A decision is one ply. At the start of a turn a bot plans a whole chain and
plays its first placement; asked again in the middle of the chain, it plans
the rest from there (the chain so far is public and in its view).

- easy: a uniformly random legal move.
- normal: the best chain for this turn by a one-turn value (points scored,
  less what the tiles used are worth on the rack, plus the tile drawn after),
  found by a bounded depth-first search over chains; draws instead when no
  chain is worth more than the tiles drawing brings.
- strong: determinized Monte Carlo (information-set sampling): for the best
  few chains by the normal value and for drawing, it samples states
  consistent with its view, plays the turn and a round of replies by the
  normal policy in each, and picks the choice with the best mean score lead.
  The budget is ``iterations`` simulated turns (the choice's own turn and
  each reply count one; repeatable) or ``budget_ms``.
"""

from __future__ import annotations

import random
import time

from games.engine import CHANCE, get_rules
from games.rondo.engine.moves import DRAW, END, TILE
from games.rondo.engine.state import RondoState

RULES = get_rules("rondo")
DEFAULT_BUDGET_MS = 200.0
#: Worth of a tile on the rack, in points (the future points it may score).
TILE_WORTH = 1.6
#: Late in the match a tile on the rack is only worth its tie-break.
LATE_TILE_WORTH = 0.05
#: A face-down tile is a bridge: worth using only for what it leads to.
BRIDGE_COST = 0.4
SEARCH_NODES = 4000
CANDIDATES = 6


def tile_worth(state: RondoState) -> float:
    """What one tile on the rack is worth now, in points."""
    if state.ending or sum(state.bag) < 2 * state.players:
        return LATE_TILE_WORTH
    return TILE_WORTH


def plans(state: RondoState, nodes: int = SEARCH_NODES) -> list[tuple[float, tuple]]:
    """Chains the seat to move can still place this turn (continuing the
    chain in progress), as ``(value, moves)`` best first; ``moves`` is empty
    for "stop here" when a chain is in progress. Value: points the rest of the
    chain scores, less the worth of the tiles it uses and a cost per bridge,
    plus the tile drawn after it.

    The search follows the rules' chain constraints on plain numbers (no
    states are built): on each space it tries all the rack's tiles of the
    space's colour face up (fewer is never better this turn) or one tile face
    down per colour held, never a bridge that leads nowhere. Bounded to
    ``nodes`` placements tried."""
    b = state.board
    worth = tile_worth(state)
    seat = state.turn
    rack = list(state.racks[seat])
    cells = list(state.cells)
    colour, value, nb, up, down = b.colour, b.value, b.nb, b.up, b.down
    one_change = state.one_change
    results: list[tuple[float, tuple]] = []
    if state.chain:
        results.append((worth, ()))
        firsts = [(j, k) for j, k in nb[state.chain[-1]] if not cells[j]]
    else:
        firsts = [(i, 0) for i in RULES._candidates(state)]
    budget = [nodes]

    def visit(options, kind, changed, path, points, used, bridges):
        for i, k in options:
            if budget[0] <= 0:
                return
            ch = changed
            if kind and k and k != kind:
                if ch and one_change:
                    continue
                ch = True
            nk = k or kind
            budget[0] -= 1
            cells[i] = 1
            col = colour[i]
            n = rack[col]
            nexts = [(j, kk) for j, kk in nb[i] if not cells[j]]
            if n:
                rack[col] = 0
                p2 = points + n * value[i]
                step = path + (up[i][n - 1],)
                results.append((p2 - worth * (used + n) - BRIDGE_COST * bridges + worth, step))
                if sum(rack):
                    visit(nexts, nk, ch, step, p2, used + n, bridges)
                rack[col] = n
            if nexts and sum(rack) >= 2:
                for c in range(5):
                    if rack[c] and (c != col or rack[c] > 1):
                        rack[c] -= 1
                        visit(nexts, nk, ch, path + (down[i][c],), points, used + 1, bridges + 1)
                        rack[c] += 1
            cells[i] = 0

    if sum(rack):
        visit(firsts, state.chain_kind, state.changed, (), 0, 0, 0)
    results.sort(key=lambda t: -t[0])
    return results


def draw_value(state: RondoState) -> float | None:
    """Value of drawing instead of placing, or None when not allowed."""
    rack = sum(state.racks[state.turn])
    if state.chain or rack >= 5:
        return None
    n = min(1 if rack == 4 else 2, sum(state.bag))
    return tile_worth(state) * n


def normal_turn(state: RondoState) -> tuple:
    """The normal level's choice for the rest of this turn: a tuple of
    placements ending with ``end``, or ``(draw,)``."""
    options = plans(state)
    drawing = draw_value(state)
    if options and (drawing is None or options[0][0] > drawing):
        return options[0][1] + (END,)
    if drawing is not None:
        return (DRAW,)
    if state.chain:
        return (END,)
    # A full rack with no chain worth placing: give up one tile face down,
    # of the colour held most.
    rack = state.racks[state.turn]
    c = max(range(5), key=lambda c: rack[c])
    space = RULES._candidates(state)[0]
    return (state.board.down[space][c], END)


def _chance(state: RondoState, rng: random.Random):
    bag = state.bag
    r = rng.randrange(sum(bag))
    for c in range(5):
        if r < bag[c]:
            return TILE[c]
        r -= bag[c]
    raise AssertionError("empty bag")


def _play_turn(state: RondoState, moves: tuple, rng: random.Random) -> RondoState:
    for m in moves:
        state = RULES.play(state, m)
    while RULES.to_move(state) == CHANCE:
        state = RULES.play(state, _chance(state, rng))
    return state


def rollout_value(state: RondoState, me: int, rng: random.Random) -> tuple[float, int]:
    """Play on with the normal policy until ``me`` is to move again (or the
    end). Returns the score lead of ``me`` over the best other seat (tiles on
    the racks counted at their worth) and the turns simulated."""
    turns = 0
    for _ in range(state.players):
        who = RULES.to_move(state)
        if who is None or who == me:
            break
        state = _play_turn(state, normal_turn(state), rng)
        turns += 1
    worth = tile_worth(state) if RULES.to_move(state) is not None else LATE_TILE_WORTH
    mine = state.scores[me] + worth * sum(state.racks[me])
    others = [
        state.scores[s] + worth * sum(state.racks[s])
        for s in range(state.players)
        if s != me and s not in state.left
    ]
    return mine - max(others, default=0.0), turns


def strong_turn(view: dict, seat: int, state: RondoState, rng: random.Random, budget_ms, iterations) -> tuple:
    """The strong level's choice for the rest of this turn (see the module)."""
    if state.chain:
        return normal_turn(state)
    options = [p for _, p in plans(state)[:CANDIDATES]]
    choices = [p + (END,) for p in options]
    if draw_value(state) is not None:
        choices.append((DRAW,))
    if len(choices) <= 1:
        return choices[0] if choices else normal_turn(state)
    deadline = None
    if iterations is None:
        budget = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
        deadline = time.perf_counter() + budget / 1000 * 0.8
    totals = [0.0] * len(choices)
    rounds = 0
    done = 0
    while True:
        if iterations is not None and rounds and done >= iterations:
            break
        if deadline is not None and rounds and time.perf_counter() > deadline:
            break
        # One sampled world per round, shared by every choice (common random numbers).
        world = RULES.sample_state(view, seat, rng)
        seed = rng.random()
        for i, choice in enumerate(choices):
            r = random.Random(seed)
            lead, turns = rollout_value(_play_turn(world, choice, r), seat, r)
            totals[i] += lead
            done += 1 + turns
        rounds += 1
    best = max(range(len(choices)), key=lambda i: (totals[i], -i))
    return choices[best]


def choose(level: str, view: dict, seat: int, legal: list, rng: random.Random, budget_ms, iterations):
    """One Rondo decision (one ply) for ``seat``; returns an element of ``legal``."""
    if level == "easy" or len(legal) == 1:
        return rng.choice(legal)
    state = RULES.sample_state(view, seat, rng)
    if RULES.to_move(state) != seat:
        raise ValueError(f"seat {seat} is not to move in this view")
    if level == "normal":
        turn = normal_turn(state)
    else:
        turn = strong_turn(view, seat, state, rng, budget_ms, iterations)
    first = str(turn[0])
    for candidate in legal:
        if str(candidate) == first:
            return candidate
    raise ValueError(f"bot chose {first}, which is not among the legal moves given")
