"""Pairing waiting players into tables (README "Ranked play"): a pure function.

Each waiting player has a window w that grows with their wait: 100 rating
points at first, +50 every 10 s, at most 600 (``window``; the numbers were
tuned by the simulation in ``benchmarks/pairing.py``, see
``docs/benchmarks.md``). The turn-based queues, whose players wait hours and
not seconds, widen by the clock instead (``turn_based_window``: 100 points,
+50 every 10 minutes up to 400 at one hour, then unbounded once a player has
waited TURN_BASED_ANYONE_SECONDS; docs/decisions.md "The turn-based ranked
queue"). A table of N players is allowed when its highest
rating minus its lowest (its spread) is at most the smallest w among them.

``pair`` seats the longest-waiting player first, at the allowed table with
the smallest spread, and never seats one player twice; then the next
longest-waiting player who is still unseated, and so on. Players kept
``apart`` (a block between them: ``accounts.blocks.apart``) are never seated
at one table: a table holding such a pair is not allowed, and the search
goes on past it (with no such pair, nothing more is done).

How it stays fast (10,000 players well under 200 ms): the unseated players
sit in a doubly linked list in rating order. The smallest-spread table that
holds a given player is one of the N runs of N consecutive unseated players
around it; when that run is allowed it is the answer. Otherwise (a
neighbour's window is too small) the player's table is searched among the
``SEARCH_NEIGHBOURS`` nearest unseated players on each side within its own
window, exactly: every pair of end points, the players between them whose
window is wide enough.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import dataclass

#: Window at 0 s, its growth per step, the step (seconds) and the cap (rating points).
WINDOW_START = 100.0
WINDOW_STEP = 50.0
WINDOW_STEP_SECONDS = 10.0
WINDOW_MAX = 600.0
#: The turn-based queues' window: its growth step (seconds) and cap (rating
#: points); from TURN_BASED_ANYONE_SECONDS on it has no bound (anyone).
TURN_BASED_STEP_SECONDS = 600.0
TURN_BASED_MAX = 400.0
TURN_BASED_ANYONE_SECONDS = 12 * 3600.0
#: Unseated neighbours looked at on each side when the nearest run is not allowed.
SEARCH_NEIGHBOURS = 24


def window(waited: float) -> float:
    """The rating window (rating points) of a player who has waited ``waited`` seconds."""
    steps = int(max(0.0, waited) // WINDOW_STEP_SECONDS)
    return min(WINDOW_MAX, WINDOW_START + WINDOW_STEP * steps)


def turn_based_window(waited: float) -> float:
    """The rating window (rating points) of a player who has waited ``waited``
    seconds in a turn-based queue: 100, +50 every 10 minutes, 400 from one hour
    on, and ``math.inf`` (anyone) from TURN_BASED_ANYONE_SECONDS (12 hours) on."""
    if waited >= TURN_BASED_ANYONE_SECONDS:
        return math.inf
    steps = int(max(0.0, waited) // TURN_BASED_STEP_SECONDS)
    return min(TURN_BASED_MAX, WINDOW_START + WINDOW_STEP * steps)


@dataclass(frozen=True, slots=True)
class Waiting:
    """One waiting player: ``key`` (any hashable id, e.g. a queue entry id),
    ``rating`` (rating points) and ``waited`` (seconds in the queue)."""

    key: Hashable
    rating: float
    waited: float


def pair(waiting: Sequence[Waiting], size: int,
         window_of: Callable[[float], float] = window,
         apart: Collection[Collection[Hashable]] = ()) -> list[tuple[Hashable, ...]]:
    """Tables of ``size`` players (2..4) from ``waiting``; ``window_of`` gives
    a player's window from their wait (``window``, or ``turn_based_window``);
    ``apart`` lists pairs of keys never seated at one table.

    Returns a list of tables, each a tuple of keys in seating order (the
    longest-waiting first), in the order they were formed. Players not
    returned keep waiting. A key given twice is seated at most once (its
    first entry counts). Raises ValueError for a size below 2.
    """
    if size < 2:
        raise ValueError("a table has at least 2 players")
    players = list({w.key: w for w in reversed(waiting)}.values())[::-1]  # first entry of a key
    n = len(players)
    if n < size:
        return []
    players.sort(key=lambda w: w.rating)  # positions below are in rating order
    rating = [w.rating for w in players]
    waited = [w.waited for w in players]
    win = [window_of(t) for t in waited]
    # Linked list of the unseated over rating order; -1 ends it.
    prev = list(range(-1, n - 1))
    nxt = list(range(1, n + 1))
    nxt[-1] = -1
    alive = [True] * n
    remaining = n
    foes = _foes(players, apart)
    tables: list[tuple] = []
    for p in sorted(range(n), key=waited.__getitem__, reverse=True):
        if not alive[p]:
            continue
        if remaining < size:
            break
        if size == 2:
            best = _nearest_pair(p, rating, win, prev, nxt, foes)
        else:
            best = _nearest_table(p, size, rating, win, prev, nxt, foes)
        if best is None:
            continue
        _unlink(best, prev, nxt, alive)
        remaining -= size
        best = sorted(best, key=waited.__getitem__, reverse=True)
        tables.append(tuple(players[m].key for m in best))
    return tables


def _foes(players: list[Waiting], apart: Collection[Collection[Hashable]]) -> list[set[int]] | None:
    """For each position in ``players``, the positions it may not share a
    table with (from ``apart``'s pairs of keys); None when there are none."""
    if not apart:
        return None
    at = {w.key: i for i, w in enumerate(players)}
    foes: list[set[int]] = [set() for _ in players]
    for a, b in (tuple(pair) for pair in apart if len(pair) == 2):
        if a in at and b in at:
            foes[at[a]].add(at[b])
            foes[at[b]].add(at[a])
    return foes if any(foes) else None


def _friendly(members, foes: list[set[int]] | None) -> bool:
    """Whether no two of ``members`` (positions) are kept apart."""
    return foes is None or all(foes[m].isdisjoint(members) for m in members)


def _neighbours(p: int, step: list[int], limit: int, reach: float, rating: list[float]) -> list[int]:
    """Up to ``limit`` unseated players next to ``p`` along ``step`` (``prev``:
    lower ratings, nearest first; ``nxt``: higher), within ``reach`` rating points."""
    out = []
    q = step[p]
    rp = rating[p]
    while q >= 0 and len(out) < limit and abs(rating[q] - rp) <= reach:
        out.append(q)
        q = step[q]
    return out


def _nearest_table(p: int, size: int, rating: list[float], win: list[float], prev: list[int],
                   nxt: list[int], foes: list[set[int]] | None = None) -> list[int] | None:
    """The allowed table of ``size`` (3 or 4) holding ``p`` with the smallest
    spread, in rating order, or None: among the runs of ``size`` consecutive
    unseated players around ``p``, else (when no allowed run is the nearest
    one) ``_search`` among SEARCH_NEIGHBOURS on each side."""
    wp = win[p]
    left = _neighbours(p, prev, size - 1, wp, rating)[::-1]
    right = _neighbours(p, nxt, size - 1, wp, rating)
    run = left + [p] + right
    best = best_spread = nearest_spread = None
    for s in range(max(0, len(left) - size + 1), min(len(left), len(run) - size) + 1):
        members = run[s:s + size]
        spread = rating[members[-1]] - rating[members[0]]
        if nearest_spread is None or spread < nearest_spread:
            nearest_spread = spread
        if (best_spread is None or spread < best_spread) and all(win[m] >= spread for m in members) \
                and _friendly(members, foes):
            best, best_spread = members, spread
    if best is None or best_spread > nearest_spread:
        best = _search(p, size, rating, win,
                       _neighbours(p, prev, SEARCH_NEIGHBOURS, wp, rating)[::-1],
                       _neighbours(p, nxt, SEARCH_NEIGHBOURS, wp, rating), foes) or best
    return best


def _unlink(seated: list[int], prev: list[int], nxt: list[int], alive: list[bool]) -> None:
    """Take the ``seated`` players out of the linked list of the unseated."""
    for m in seated:
        a, b = prev[m], nxt[m]
        if a >= 0:
            nxt[a] = b
        if b >= 0:
            prev[b] = a
        alive[m] = False


def _nearest_pair(p: int, rating: list[float], win: list[float], prev: list[int],
                  nxt: list[int], foes: list[set[int]] | None = None) -> list[int] | None:
    """The unseated player nearest in rating to ``p`` whose table with ``p``
    is allowed (spread within both windows, not kept apart), or None."""
    rp, wp = rating[p], win[p]
    near = foes[p] if foes is not None else ()
    best, best_spread = None, None
    for step in (prev, nxt):
        q = step[p]
        while q >= 0:
            spread = abs(rating[q] - rp)
            if spread > wp or (best_spread is not None and spread >= best_spread):
                break
            if win[q] >= spread and q not in near:
                best, best_spread = q, spread
                break
            q = step[q]
    return None if best is None else [p, best]


def _search(p: int, size: int, rating: list[float], win: list[float],
            left: list[int], right: list[int], foes: list[set[int]] | None = None) -> list[int] | None:
    """The allowed table of ``size`` holding ``p`` with the smallest spread,
    among ``left`` + [p] + ``right`` (rating order), or None."""
    cands = left + [p] + right
    at = len(left)
    best, best_spread = None, None
    for a in range(at + 1):
        for b in range(at, len(cands)):
            lo, hi = cands[a], cands[b]
            spread = rating[hi] - rating[lo]
            if best_spread is not None and spread >= best_spread:
                continue
            ends = {lo, hi, p}
            if len(ends) > size or any(win[e] < spread for e in ends) or not _friendly(ends, foes):
                continue
            middle = _fill(ends, [c for c in cands[a + 1:b] if c not in ends and win[c] >= spread],
                           size - len(ends), foes)
            if middle is not None:
                best, best_spread = sorted(ends | set(middle), key=lambda c: rating[c]), spread
    return best


def _fill(ends: set[int], middle: list[int], need: int, foes: list[set[int]] | None) -> list[int] | None:
    """``need`` of ``middle`` to seat with ``ends``, the first that fit (none
    kept apart from the table so far), or None when too few do."""
    if foes is None:
        return middle[:need] if len(middle) >= need else None
    chosen, table = [], set(ends)
    for c in middle:
        if len(chosen) == need:
            break
        if foes[c].isdisjoint(table):
            chosen.append(c)
            table.add(c)
    return chosen if len(chosen) == need else None
