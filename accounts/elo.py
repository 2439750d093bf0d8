"""Elo ratings: pure math, no Django (README "Ranked play").

Ratings are floats in rating points, rounded only for display. Two seats
play the standard Elo update. With 3 or 4 seats every pair of seats is one
game scored from their ranks (win 1, shared rank 0.5, loss 0) and each
player's pairwise changes are summed with K divided by N - 1, so an N = 2
match is exactly standard Elo. Leavers lose to everyone who stayed: their
ranks (docs/rules.md "Common", Leaving) already say so.
"""

from __future__ import annotations

from collections.abc import Sequence

#: A new player's rating in every game.
INITIAL_RATING = 1500.0
#: No rating goes below this, applied after the update.
RATING_FLOOR = 100.0
#: Fewer rated games than this: provisional (shown "1500?") and K_PROVISIONAL.
PROVISIONAL_GAMES = 20
K_PROVISIONAL = 40.0
K_ESTABLISHED = 20.0


def expected_score(rating: float, opponent: float) -> float:
    """E = 1 / (1 + 10^((Rb - Ra) / 400)): the expected score (0..1) of a player
    rated ``rating`` against one rated ``opponent`` (rating points)."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def k_factor(games_played: int) -> float:
    """K for a player with ``games_played`` rated games in this game kind:
    40 while provisional (fewer than 20), then 20."""
    return K_PROVISIONAL if games_played < PROVISIONAL_GAMES else K_ESTABLISHED


def is_provisional(games_played: int) -> bool:
    """True for fewer than PROVISIONAL_GAMES rated games."""
    return games_played < PROVISIONAL_GAMES


def pair_score(rank: int, other_rank: int) -> float:
    """The score of a seat ranked ``rank`` against one ranked ``other_rank``
    (1 = first): 1 for a better rank, 0.5 for a shared one, 0 for a worse one."""
    if rank < other_rank:
        return 1.0
    if rank == other_rank:
        return 0.5
    return 0.0


def rating_deltas(ratings: Sequence[float], ranks: Sequence[int], ks: Sequence[float]) -> list[float]:
    """Each seat's rating change (rating points, unrounded, before the floor).

    ``ratings``, ``ranks`` (1 = first, shared ranks allowed) and ``ks`` (each
    seat's K) are per seat, 2..4 seats. Seat i gains
    sum over j != i of K_i / (N - 1) * (S_ij - E_ij).
    Raises ValueError for fewer than 2 seats or lists of different lengths.
    """
    n = len(ratings)
    if n < 2 or len(ranks) != n or len(ks) != n:
        raise ValueError("rating_deltas needs 2 or more seats and one rank and K per seat")
    deltas = []
    for i in range(n):
        total = 0.0
        for j in range(n):
            if i != j:
                total += pair_score(ranks[i], ranks[j]) - expected_score(ratings[i], ratings[j])
        deltas.append(ks[i] / (n - 1) * total)
    return deltas


def new_ratings(ratings: Sequence[float], ranks: Sequence[int], games_played: Sequence[int]) -> list[float]:
    """The ratings after a match: each seat's K from its games played before
    this match, the deltas of ``rating_deltas``, then the floor of 100."""
    ks = [k_factor(g) for g in games_played]
    return [max(RATING_FLOOR, r + d) for r, d in zip(ratings, rating_deltas(ratings, ranks, ks), strict=True)]


def display(rating: float, games_played: int) -> str:
    """A rating for people: rounded to a whole point, with "?" while provisional ("1500?")."""
    return f"{round(rating)}{'?' if is_provisional(games_played) else ''}"
