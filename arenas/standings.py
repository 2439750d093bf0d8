"""An arena's standings table (README "Arenas", Standings): its rows in the
documented order (``scoring.standings_key``), each with a sort token the
page uses to put a pushed row in its place without the whole table."""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from arenas import scoring
from arenas.models import Arena, ArenaMatch, ArenaPlayer
from games.models import Seat

#: Seconds added to ``reached_at`` for a player with no points yet (sorts last among equals).
_NEVER = 10**12


@dataclass(frozen=True)
class Row:
    """One standings row: ``player`` (ArenaPlayer, user loaded), ``rank``
    (1 = first; None for a disqualified player), ``playing`` (public id of
    the arena match they are in, or ""), ``token`` (a string whose order is the
    standings order)."""

    player: ArenaPlayer
    rank: int | None
    playing: str
    token: str

    @property
    def results(self) -> list[str]:
        return self.player.sequence.split()


def _reached(player: ArenaPlayer) -> float:
    return player.reached_at.timestamp() if player.reached_at else _NEVER


def order_key(player: ArenaPlayer) -> tuple:
    """The standings order of ``player``: disqualified players last, then
    ``scoring.standings_key`` (points, wins, who reached their points first, name)."""
    return (player.status == ArenaPlayer.Status.DISQUALIFIED,
            *scoring.standings_key(player.points, player.wins, _reached(player), player.user.username))


def token(player: ArenaPlayer) -> str:
    """A string that sorts like ``order_key`` (the page compares them as strings)."""
    dq = "1" if player.status == ArenaPlayer.Status.DISQUALIFIED else "0"
    return (f"{dq}{10**7 - player.points:08d}{10**6 - player.wins:07d}{int(_reached(player) * 1000):016d}"
            f"{player.user.username.lower()}")


def playing_now(arena: Arena, user_ids=None) -> dict[int, str]:
    """user id -> public id of the arena match each is playing now."""
    seats = Seat.objects.filter(match__arena_match__arena=arena, match__arena_match__scored=False)
    if user_ids is not None:
        seats = seats.filter(user_id__in=list(user_ids))
    return dict(seats.values_list("user_id", "match__public_id"))


def rows(arena: Arena) -> list[Row]:
    """Every player of ``arena`` in standings order, ranked. Three queries."""
    players = sorted(ArenaPlayer.objects.filter(arena=arena).select_related("user"), key=order_key)
    playing = playing_now(arena)
    out, rank = [], 0
    for p in players:
        dq = p.status == ArenaPlayer.Status.DISQUALIFIED
        if not dq:
            rank += 1
        out.append(Row(p, None if dq else rank, playing.get(p.user_id, ""), token(p)))
    return out


def some_rows(arena: Arena, player_ids) -> list[Row]:
    """The rows of ``player_ids`` only, ranked among all (their rank counts the
    players ahead of them in one query each)."""
    players = list(ArenaPlayer.objects.filter(arena=arena, pk__in=list(player_ids)).select_related("user"))
    if not players:
        return []
    playing = playing_now(arena, [p.user_id for p in players])
    everyone = list(ArenaPlayer.objects.filter(arena=arena).exclude(status=ArenaPlayer.Status.DISQUALIFIED)
                    .values_list("points", "wins", "reached_at", "user__username"))
    keys = sorted(scoring.standings_key(pts, wins, r.timestamp() if r else _NEVER, name)
                  for pts, wins, r, name in everyone)
    out = []
    for p in players:
        dq = p.status == ArenaPlayer.Status.DISQUALIFIED
        rank = None if dq else bisect.bisect_left(keys, order_key(p)[1:]) + 1
        out.append(Row(p, rank, playing.get(p.user_id, ""), token(p)))
    return out


def podium(arena: Arena) -> list[Row]:
    """The first three rows (fewer when fewer scored points)."""
    return [r for r in rows(arena) if r.rank is not None and r.player.points > 0][:3]


def arena_of_match(match) -> Arena | None:
    am = ArenaMatch.objects.filter(match=match).select_related("arena").first()
    return am.arena if am else None


def header_context(arena: Arena, now) -> dict:
    """What the arena page's header shows: the arena, its ``phase``, how many
    joined and play now, and the ``podium`` once closed (provisional until finished)."""
    phase = arena.phase(now)
    return {
        "arena": arena, "phase": phase,
        "joined": arena.players.exclude(status=ArenaPlayer.Status.DISQUALIFIED).count(),
        "podium": podium(arena) if phase in ("closing", "finished") else [],
        "provisional": phase == "closing",
    }
