"""Arena points (README "Arenas", Scoring): pure Python, no Django.

- Base points from a match's final rank (1 = first) at a table of 2 to 4
  seats: four seats 3/2/1/0, three seats 2/1/0, two seats 2/0. A rank held
  by ``shared`` players (they cover places rank .. rank + shared - 1) scores
  the average of those places' points, rounded down: a two-seat draw scores
  1 each, a shared first of four (3 + 2) // 2 = 2, a three-way share of
  first at four seats (3 + 2 + 1) // 3 = 2.
- A win is a sole first place (rank 1, not shared, not a forfeit), at any
  table size.
- Streak, as on Lichess: after two wins in a row a player is "on fire", and
  every further win scores double while the streak holds (the third win in
  a row and the later ones). A result that is not a win ends the streak and
  scores its normal points: W W W W L W at two seats scores 2 2 4 4 0 2.
- A forfeit (the player left or idled out) counts with its rank but scores
  0 whatever that rank is, is never a win and ends the streak.
- A void result (the match was aborted, or a moderator voided it) scores
  nothing and is skipped entirely: it neither extends nor ends the streak,
  and its rank is not checked.
- Standings (``standings_key``): more points first, then more wins, then
  whoever reached their total first, then the name, case-insensitive.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: Points by place (index 0 = first) for each table size.
PLACES = {2: (2, 0), 3: (2, 1, 0), 4: (3, 2, 1, 0)}
#: Wins in a row after which further wins score double.
FIRE_AFTER = 2


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def points_for(rank: int, seats: int, shared: int = 1) -> int:
    """Base points (before any streak doubling) for final ``rank`` (1 =
    first) at a table of ``seats`` (2..4), the rank held by ``shared``
    players (1 = alone). Raises ValueError when ``seats`` is not 2..4, or the
    rank and share do not fit the table (rank < 1, shared < 1, or
    rank + shared - 1 > seats), or any of them is not a whole number."""
    if not (_whole(rank) and _whole(seats) and _whole(shared)):
        raise ValueError(f"rank, seats and shared are whole numbers, not {rank!r}, {seats!r}, {shared!r}")
    if seats not in PLACES:
        raise ValueError(f"a table has 2 to 4 seats, not {seats}")
    if rank < 1 or shared < 1 or rank + shared - 1 > seats:
        raise ValueError(f"rank {rank} shared by {shared} is impossible at {seats} seats")
    return sum(PLACES[seats][rank - 1:rank - 1 + shared]) // shared


@dataclass(frozen=True, slots=True)
class Result:
    """One player's result in one arena match: final ``rank`` (1 = first)
    at a table of ``seats``, held by ``shared`` players; ``forfeit``: they
    left or idled out (0 points, streak ended); ``void``: the match was
    aborted or voided (skipped)."""

    rank: int
    seats: int
    shared: int = 1
    forfeit: bool = False
    void: bool = False

    @property
    def is_win(self) -> bool:
        """A sole first place that counts (not a forfeit, not void)."""
        return self.rank == 1 and self.shared == 1 and not self.forfeit and not self.void


@dataclass(frozen=True, slots=True)
class Scored:
    """A player's score: ``points`` (one per result, in order; 0 for a void
    or forfeit one), ``total`` (their sum), ``wins`` (wins that counted) and
    ``on_fire`` (True when their next win would score double)."""

    points: tuple[int, ...]
    total: int
    wins: int
    on_fire: bool


def score(results: Sequence[Result]) -> Scored:
    """Score one player's results, given in the order their matches ended
    (the rules: module docstring). Raises ValueError, as ``points_for`` does,
    for a result (not void) whose rank, seats or share is impossible."""
    points: list[int] = []
    streak = wins = 0
    for r in results:
        if r.void:
            points.append(0)
            continue
        base = points_for(r.rank, r.seats, r.shared)
        if r.forfeit:
            points.append(0)
            streak = 0
        elif r.is_win:
            points.append(base * 2 if streak >= FIRE_AFTER else base)
            streak += 1
            wins += 1
        else:
            points.append(base)
            streak = 0
    return Scored(tuple(points), sum(points), wins, streak >= FIRE_AFTER)


def standings_key(total: int, wins: int, reached_at: float, name: str) -> tuple:
    """The sort key of the standings; sorting ascending puts first place first.

    The order: more points (``total``) first; then more ``wins``; then
    whoever reached their total first (``reached_at``: seconds, e.g. a Unix
    time, the end of the last result that changed their total; smaller
    first; a player who never scored can pass ``math.inf``); then ``name``,
    case-insensitive (``str.lower``), and last the name as given, so that
    two different names never tie.
    """
    return (-total, -wins, reached_at, name.lower(), name)
