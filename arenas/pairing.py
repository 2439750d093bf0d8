"""Arena pairing (README "Arenas", Pairing): a pure function, no Django.

``pair`` takes the players free in a running arena and seats them at tables
of ``size``:

1. Nobody waits more than one wave while a table can be formed: every call
   seats floor(n / size) tables. The n mod size players left over are the
   ones free the shortest time. Players are ranked by time free (longest
   first), then by matches played in the arena (``Free.played``, fewest
   first: over many calls, players freed together take turns at the seat),
   then by rating (lowest first), then by their position in the input; the
   last n mod size of that order are left over, unless rule 3b swaps one
   of them in for a repeat.
   The tie band: let ``t_out`` be the longest time free among those left
   over and ``t_in`` the shortest among those seated (``t_out <= t_in``).
   When ``t_in - t_out <= TIE_SECONDS``, the band is the players whose time
   free ``w`` has ``lo <= w`` and ``w - lo <= TIE_SECONDS``, where
   ``lo = min(t_out, (t_out + t_in - TIE_SECONDS) / 2)`` (a window
   ``TIE_SECONDS`` wide, centred on the gap between the two); otherwise
   there is no band. Players in the band count as tied for the last seats:
   rule 3b may leave any of them over instead. So a player left over never
   waited more than ``TIE_SECONDS`` longer than anyone seated; everyone
   free longer than the band is seated, everyone free less than it left over.
2. Rating-near: the seated players are sorted by rating (then input
   position) and cut into consecutive tables of ``size``, lowest first.
3. No repeats where the pool allows. A table is a "repeat" when it holds
   two players one of whom is among the other's last arena match opponents
   (either way round). Two steps, both local:
   a. The cut passes repeats over: each table takes the lowest-rated player
      not yet seated, then the next ones in rating order who meet nobody at
      it again, looking at most ``REPAIR_REACH`` tables' worth of players
      ahead; a player passed over starts or joins one of the next tables.
      Short of such players (the last tables, or a pool where everyone
      met), the table takes the next ones whatever they repeat. With no
      last opponents among the seated this is the plain cut.
   b. Each repeat table left, lowest first, is repaired by swapping its
      players, one at a time (at most size - 1 swaps), with players of the
      tables nearby in rating order: distance 1 first, then 2, up to
      ``REPAIR_REACH`` on each side. A swap is allowed when it lowers the
      number of repeat pairs at the table and adds none at the other one (a
      clean table stays clean). At the nearest distance with an allowed
      swap, the one leaving the fewest repeat pairs wins, then the one
      between the two closest ratings (then the lower table, the first
      seats). When no table allows a swap, a player of the table who is in
      the tie band (rule 1) may instead swap with a band player left over
      (the one going out is then left over), when that lowers the table's
      repeat pairs: the fewest pairs left wins, then the closest ratings,
      then the leftover first in rule 1's order. The swaps are kept only
      when they leave the table clean, else undone: the repeat stays when
      the pool does not allow one (two players who just met, alone in the
      pool).
   c. Rarely, passing over crowds repeats into later tables that no swap
      can clean. So when repeats are left, the plain cut repaired as in b is
      taken instead if it leaves fewer: never more repeat tables than the
      plain cut.
   With ``avoid_repeats=False``, neither step: the plain cut, and the left
   over exactly as ranked in rule 1.
4. Within a table, the longest-free player is seated first (ties as in 1).
   Tables come in rating order: by their average rating, lowest first (ties:
   the order of the cut).
5. A key given twice counts once: its first entry. A size below 2 raises
   ValueError.

Speed: two sorts (O(n log n)), one pass for the tie band, reading each
player's last opponents once, then bounded local work: the cut looks at most
(``REPAIR_REACH`` + 1) * size players ahead per seat, and each repeat table
tries at most size - 1 swaps among 2 * ``REPAIR_REACH`` * size**2 candidates
(plus size * (size - 1) with the band's leftovers). 2,000 players take a few
milliseconds to a few tens (``benchmarks/arena_pairing.py``).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

#: How far the repeat avoidance looks, in tables: the cut looks this many
#: tables' worth of players ahead; a repair, this many tables on each side.
REPAIR_REACH = 3
#: Players whose times free are this close (seconds) count as tied for the
#: last seats (rule 1's tie band): a repeat may seat one instead of another.
TIE_SECONDS = 1.0
_NONE: frozenset = frozenset()


@dataclass(frozen=True, slots=True)
class Free:
    """A free arena player: ``key`` (any hashable id, e.g. a user id),
    ``rating`` (rating points), ``waited`` (seconds free since their last
    match ended or they joined), ``last_opponents`` (the keys of their
    previous arena match's opponents; empty for none) and ``played`` (how
    many matches they have played in this arena so far; among players free
    equally long, fewer plays are seated first)."""

    key: Hashable
    rating: float
    waited: float
    last_opponents: frozenset = frozenset()
    played: int = 0


def pair(free: Sequence[Free], size: int, *, avoid_repeats: bool = True) -> list[tuple[Hashable, ...]]:
    """Tables of ``size`` players from ``free`` (the rules: module docstring).

    Returns floor(n / size) tables (n: distinct keys), each a tuple of
    ``size`` keys in seating order (the longest-free first), the tables in
    rating order (lowest average first). Players not returned stay free:
    the most recently freed, give or take ``TIE_SECONDS`` (rule 1).
    ``avoid_repeats=False`` skips the repeat avoidance (rule 3): the plain
    rating cut of the players ranked first. Raises ValueError for a size
    below 2.
    """
    if size < 2:
        raise ValueError(f"a table has at least 2 players, not {size}")
    players: list[Free] = []
    seen: set = set()
    for p in free:
        if p.key not in seen:
            seen.add(p.key)
            players.append(p)
    n = len(players)
    count = n - n % size
    if not count:
        return []
    rating = [p.rating for p in players]
    # Priority: longest free first, then fewer plays, then lower rating, then input position.
    prio = sorted(range(n), key=lambda i: (-players[i].waited, players[i].played, rating[i], i))
    rank = [0] * n
    for r, i in enumerate(prio):
        rank[i] = r
    seated = sorted(prio[:count], key=lambda i: (rating[i], i))
    band, spare = _band(players, prio, count) if avoid_repeats else (_NONE, [])
    conflicts = _conflicts(players, seated + spare) if avoid_repeats else None
    if conflicts:
        tables = _cut(seated, size, conflicts)
        _repair(tables, conflicts, rating, band, list(spare), rank)
        left = _repeat_tables(tables, conflicts)
        if left:  # rule 3c: never more repeats than the plain cut, repaired
            plain = [seated[s:s + size] for s in range(0, count, size)]
            _repair(plain, conflicts, rating, band, list(spare), rank)
            if _repeat_tables(plain, conflicts) < left:
                tables = plain
        tables.sort(key=lambda t: sum(map(rating.__getitem__, t)))  # stable: ties keep the cut's order
    else:
        tables = [seated[s:s + size] for s in range(0, count, size)]
    keys = [p.key for p in players]
    out = []
    for t in tables:
        t.sort(key=rank.__getitem__)
        out.append(tuple([keys[i] for i in t]))
    return out


def repeats(tables: Iterable[Sequence[Hashable]], last_opponents_by_key: Mapping[Hashable, Iterable]) -> int:
    """How many of ``tables`` (sequences of keys) are repeats: they seat two
    players one of whom is in the other's last opponents
    (``last_opponents_by_key``: key -> keys; a missing key has none)."""
    count = 0
    for table in tables:
        keys = set(table)
        if any(keys.intersection(last_opponents_by_key.get(k, ())) - {k} for k in table):
            count += 1
    return count


def _band(players: list[Free], prio: list[int], count: int) -> tuple[frozenset, list[int]]:
    """Rule 1's tie band: (the indices in it, the ones of them left over in
    ``prio`` order); (empty, []) when nobody is left over or the gap between
    the left over and the seated is wider than ``TIE_SECONDS``."""
    if count == len(prio):
        return _NONE, []
    t_in = players[prio[count - 1]].waited  # the shortest free among the seated
    t_out = players[prio[count]].waited  # the longest free among the left over
    lo = min(t_out, (t_out + t_in - TIE_SECONDS) / 2)
    if t_in - lo > TIE_SECONDS:
        return _NONE, []
    band = frozenset(i for i, p in enumerate(players) if lo <= p.waited and p.waited - lo <= TIE_SECONDS)
    return band, [i for i in prio[count:] if i in band]


def _conflicts(players: list[Free], pool: list[int]) -> dict[int, set[int]]:
    """Index -> the indices it must not meet (symmetric), among ``pool``
    (the seated and the band's leftovers); only players with a conflict
    appear."""
    index = {players[i].key: i for i in pool}
    out: dict[int, set[int]] = {}
    for i in pool:
        last = players[i].last_opponents
        if last:
            js = {index[k] for k in last if k in index}
            js.discard(i)
            if js:
                out[i] = js
    for i, js in list(out.items()):
        for j in js:
            back = out.get(j)
            if back is None:
                out[j] = {i}
            else:
                back.add(i)
    return out


def _cut(seated: list[int], size: int, conflicts: dict[int, set[int]]) -> list[list[int]]:
    """The rating cut with repeats passed over (rule 3a): each table takes the
    lowest unseated player, then the next ones in rating order who meet
    nobody at it again, looking ``REPAIR_REACH`` tables ahead; short of
    those, the nearest ones whatever they repeat."""
    tables = []
    reach = (REPAIR_REACH + 1) * size
    window = seated[:reach]
    fed = len(window)
    get = conflicts.get
    while window:
        table = [window[0]]
        banned = set(get(window[0], ()))
        for c in window[1:]:
            if c not in banned:
                table.append(c)
                if len(table) == size:
                    break
                banned.update(get(c, ()))
        if len(table) < size:
            taken = set(table)
            table += [c for c in window if c not in taken][:size - len(table)]
        taken = set(table)
        window = [c for c in window if c not in taken]
        window += seated[fed:fed + size]
        fed += size
        tables.append(table)
    return tables


def _repeat_tables(tables: list[list[int]], conflicts: dict[int, set[int]]) -> int:
    """How many of ``tables`` seat two players who must not meet."""
    get = conflicts.get
    return sum(1 for t in tables if not all(get(a, _NONE).isdisjoint(t) for a in t))


def _bad(table: list[int], conflicts: dict[int, set[int]]) -> int:
    """How many pairs at ``table`` must not meet (0: not a repeat)."""
    get = conflicts.get
    return sum(len(get(a, _NONE).intersection(table)) for a in table) // 2


def _repair(tables: list[list[int]], conflicts: dict[int, set[int]], rating: list[float],
            band: frozenset, spare: list[int], rank: list[int]) -> None:
    """Repair repeat tables in place by swaps with nearby tables (rule 3b of
    the module docstring): each swap lowers the repeat table's conflicting
    pairs and adds none at the other table; when no table allows one, a
    band player of the table may swap with a band leftover in ``spare``
    (changed in place too). A table's swaps (at most size - 1) are kept only
    when they leave it clean, else undone. Conflicts are symmetric, so ``b``
    conflicts with ``a`` exactly when ``a`` conflicts with ``b``."""
    get = conflicts.get
    for t, table in enumerate(tables):
        bad = _bad(table, conflicts)
        done: list[tuple[int, int, int]] = []  # (other table or -1 for spare, seat, seat there)
        while bad and len(done) < len(table) - 1:
            # The players who conflict at the table: (seat, player, conflicts, how many here).
            outs = [(i, a, ca, len(ca.intersection(table))) for i, a in enumerate(table)
                    if (ca := get(a)) and not ca.isdisjoint(table)]
            best = None
            for d in range(1, REPAIR_REACH + 1):
                for o in (t - d, t + d):
                    if not 0 <= o < len(tables):
                        continue
                    other = tables[o]
                    ins = [(j, b, len(cb.intersection(table)), len(cb.intersection(other))) if (cb := get(b))
                           else (j, b, 0, 0) for j, b in enumerate(other)]
                    for i, a, ca, out_a in outs:
                        a_there = len(ca.intersection(other))
                        ra = rating[a]
                        for j, b, b_here, b_there in ins:
                            met = b in ca  # a and b conflict: a leaves, so b does not count it
                            left = bad - out_a + b_here - met
                            if left >= bad or a_there - met > b_there:
                                continue  # no better here, or worse at the other table
                            key = (left, abs(ra - rating[b]))
                            if best is None or key < best[0]:
                                best = (key, o, i, j)
                if best is not None:
                    break  # the nearest distance that allows a swap
            if best is None and spare:  # a band player of the table for a band leftover
                for i, a, ca, out_a in outs:
                    if a not in band:
                        continue
                    ra = rating[a]
                    for j, b in enumerate(spare):
                        cb = get(b, _NONE)
                        left = bad - out_a + len(cb.intersection(table)) - (b in ca)
                        if left >= bad:
                            continue
                        key = (left, abs(ra - rating[b]), rank[b])
                        if best is None or key < best[0]:
                            best = (key, -1, i, j)
            if best is None:
                break
            (bad, *_), o, i, j = best
            there = spare if o < 0 else tables[o]
            table[i], there[j] = there[j], table[i]
            done.append((o, i, j))
        if bad:
            for o, i, j in reversed(done):
                there = spare if o < 0 else tables[o]
                table[i], there[j] = there[j], table[i]
