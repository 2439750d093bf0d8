"""An arena's standings table (README "Arenas", Standings): its rows in the
documented order (``order_key``: disqualified players last, then
``scoring.standings_key``), each with its true rank, its position in the
whole table and a sort token the page uses to put a pushed row in its place
without the whole table.

Ranking a few rows (``some_rows``) and reading one page (``window``) do not
load every player: SQL counts and orders on the numeric columns (status,
points, wins, ``reached_at``), which it compares exactly as ``order_key``
does; the name, last in the order, is compared in Python (SQL's lower case
and collation are not Python's ``str.lower``), only among the players tied
on everything else.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.db import connections, router
from django.db.models import Case, F, IntegerField, Q, Value, When

from arenas import scoring
from arenas.models import Arena, ArenaMatch, ArenaPlayer
from core import prepared
from games.models import Seat

#: Seconds used as ``reached_at`` for a player with no points yet (sorts last among equals).
_NEVER = 10**12
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICRO = timedelta(microseconds=1)
_DQ = ArenaPlayer.Status.DISQUALIFIED

#: Rows on one page of the standings; the arena page shows the first page live.
PAGE_SIZE = 100


@dataclass(frozen=True)
class Row:
    """One standings row: ``player`` (ArenaPlayer, user loaded), ``rank``
    (1 = first; None for a disqualified player), ``playing`` (public id of
    the arena match they are in, or ""), ``token`` (a string whose order is the
    standings order) and ``pos``, their place in the whole table (1 = first;
    the same as ``rank`` for everyone not disqualified, who all come first)."""

    player: ArenaPlayer
    rank: int | None
    playing: str
    token: str
    pos: int

    @property
    def results(self) -> list[str]:
        return self.player.sequence.split()


def _dq(player: ArenaPlayer) -> bool:
    return player.status == _DQ


def _reached(player: ArenaPlayer) -> float:
    return player.reached_at.timestamp() if player.reached_at else _NEVER


def order_key(player: ArenaPlayer) -> tuple:
    """The standings order of ``player``: disqualified players last, then
    ``scoring.standings_key`` (points, wins, who reached their points first, name)."""
    return (_dq(player), *scoring.standings_key(player.points, player.wins, _reached(player),
                                                player.user.username))


def token(player: ArenaPlayer) -> str:
    """A string that sorts like ``order_key`` when compared code point by code
    point (static/js/arena.js does): disqualified or not, points, wins, the
    microsecond the points were reached, the name in lower case, then (after
    a space, which no username holds) the name as given."""
    dq = "1" if _dq(player) else "0"
    reached = (player.reached_at - _EPOCH) // _MICRO if player.reached_at else _NEVER * 10**6
    name = player.user.username
    return f"{dq}{10**7 - player.points:08d}{10**6 - player.wins:07d}{reached:019d}{name.lower()} {name}"


#: The queries of ``some_rows`` for a table's players (1 to 4 of them), compiled
#: once (core/prepared.py): the ORM took longer to build each than to run it.
_SOME = range(1, 5)
_PLAYERS = {n: prepared.PreparedSelect(
    lambda arena_id, *ids: ArenaPlayer.objects.filter(arena_id=arena_id, pk__in=ids).select_related("user"),
    0, *range(1, n + 1)) for n in _SOME}
# ``scored`` goes in as ``__in``, a bound parameter on every backend: an exact
# boolean test is "NOT column" on PostgreSQL (nothing to bind), a parameter on SQLite.
_SEATS = {n: prepared.PreparedSelect(
    lambda arena_id, scored, *ids: Seat.objects.filter(
        match__arena_match__arena_id=arena_id, match__arena_match__scored__in=[scored], user_id__in=ids,
    ).select_related("match").only("user_id", "match__public_id"),
    0, False, *range(1, n + 1)) for n in _SOME}


def playing_now(arena: Arena, user_ids=None) -> dict[int, str]:
    """user id -> public id of the arena match each is playing now."""
    if user_ids is not None:
        user_ids = list(dict.fromkeys(user_ids))
        if len(user_ids) in _SEATS:
            return {s.user_id: s.match.public_id for s in _SEATS[len(user_ids)].fetch(
                arena.pk, False, *user_ids, using=router.db_for_read(Seat))}
    seats = Seat.objects.filter(match__arena_match__arena=arena, match__arena_match__scored=False)
    if user_ids is not None:
        seats = seats.filter(user_id__in=user_ids)
    return dict(seats.values_list("user_id", "match__public_id"))


def _row(player: ArenaPlayer, pos: int, playing: dict[int, str]) -> Row:
    return Row(player, None if _dq(player) else pos, playing.get(player.user_id, ""), token(player), pos)


def rows(arena: Arena) -> list[Row]:
    """Every player of ``arena`` in standings order, ranked. Three queries."""
    players = sorted(ArenaPlayer.objects.filter(arena=arena).select_related("user"), key=order_key)
    playing = playing_now(arena)
    return [_row(p, i, playing) for i, p in enumerate(players, 1)]


# -- the order in SQL ---------------------------------------------------------------
#
# The "coarse key" is order_key without the name: (disqualified, -points,
# -wins, reached_at with no time last). SQL compares it exactly as Python does.


def _coarse_key(player: ArenaPlayer) -> tuple:
    return _dq(player), player.points, player.wins, player.reached_at


def _same_class(player: ArenaPlayer) -> Q:
    """Disqualified players if ``player`` is one, else everyone not disqualified."""
    return Q(status=_DQ) if _dq(player) else ~Q(status=_DQ)


def _tied(player: ArenaPlayer) -> Q:
    """Players with ``player``'s coarse key (``player`` too)."""
    same = Q(points=player.points, wins=player.wins)
    same &= Q(reached_at__isnull=True) if player.reached_at is None else Q(reached_at=player.reached_at)
    return _same_class(player) & same


def _condition(connection, player: ArenaPlayer | None, kind: str) -> tuple[str, list]:
    """SQL (and its parameters) true for the players whose coarse key is,
    against ``player``'s: "ahead" smaller, within their class (disqualified or
    not); "tied" the same (``player`` too); "before" smaller, over everyone.
    "live" (no ``player``): not disqualified."""
    column = {f: connection.ops.quote_name(ArenaPlayer._meta.get_field(f).column)
              for f in ("status", "points", "wins", "reached_at")}
    st, pts, wins, reached = column["status"], column["points"], column["wins"], column["reached_at"]
    if kind == "live":
        return f"{st} <> %s", [_DQ.value]
    same_class = (f"{st} = %s" if _dq(player) else f"{st} <> %s"), [_DQ.value]
    p, w = player.points, player.wins
    if player.reached_at is None:
        earlier, same_time, at = f"{reached} IS NOT NULL", f"{reached} IS NULL", []
    else:
        earlier, same_time = f"{reached} < %s", f"{reached} = %s"
        at = [connection.ops.adapt_datetimefield_value(player.reached_at)]
    if kind == "tied":
        return f"{same_class[0]} AND {pts} = %s AND {wins} = %s AND {same_time}", [*same_class[1], p, w, *at]
    ahead = (f"{same_class[0]} AND ({pts} > %s OR ({pts} = %s AND {wins} > %s)"
             f" OR ({pts} = %s AND {wins} = %s AND {earlier}))")
    params = [*same_class[1], p, p, w, p, w, *at]
    if kind == "before" and _dq(player):  # everyone not disqualified comes first
        return f"{st} <> %s OR ({ahead})", [_DQ.value, *params]
    return ahead, params


def _counts(arena: Arena, conditions: list[tuple[ArenaPlayer | None, str]]) -> list[int]:
    """For each (player, kind) of ``conditions`` (``_condition``), how many
    players of ``arena`` meet it: one query, one pass over the arena's rows.

    Written as SQL, not as the ORM's filtered ``Count``: compiling that
    aggregate took the ORM about eight times what SQLite takes to run it
    (2.5 ms against 0.3 ms for a two-seat match, docs/benchmarks.md)."""
    connection = connections[router.db_for_read(ArenaPlayer)]
    parts, params = [], []
    for player, kind in conditions:
        sql, args = _condition(connection, player, kind)
        parts.append(f"COALESCE(SUM(CASE WHEN {sql} THEN 1 ELSE 0 END), 0)")
        params.extend(args)
    table = connection.ops.quote_name(ArenaPlayer._meta.db_table)
    arena_column = connection.ops.quote_name(ArenaPlayer._meta.get_field("arena").column)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(parts)} FROM {table} WHERE {arena_column} = %s",
                       [*params, arena.pk])
        return [int(n) for n in cursor.fetchone()]


def _name_key(player: ArenaPlayer) -> tuple[str, str]:
    name = player.user.username
    return name.lower(), name


def some_rows(arena: Arena, player_ids) -> list[Row]:
    """The rows of ``player_ids`` only, ranked among all, without reading
    every player: one query counts, for each of them, the players ahead on
    the coarse key and those tied on it; the names of a tie of more than one
    are then read (one query per tie) and compared in Python. Three queries
    for a finished match whose players are tied with nobody (those reading
    the players and their matches compiled once, ``_PLAYERS``, ``_SEATS``)."""
    ids = list(dict.fromkeys(player_ids))
    if len(ids) in _PLAYERS:
        players = _PLAYERS[len(ids)].fetch(arena.pk, *ids, using=router.db_for_read(ArenaPlayer))
    else:
        players = list(ArenaPlayer.objects.filter(arena=arena, pk__in=ids).select_related("user"))
    if not players:
        return []
    conditions: list[tuple[ArenaPlayer | None, str]] = [(None, "live")]
    for p in players:
        conditions += [(p, "ahead"), (p, "tied")]
    got = _counts(arena, conditions)
    names: dict[tuple, list[tuple[str, str]]] = {}
    playing = playing_now(arena, [p.user_id for p in players])
    out = []
    for i, p in enumerate(players):
        ahead, tied = got[1 + 2 * i], got[2 + 2 * i]
        pos = 1 + ahead + (got[0] if _dq(p) else 0)
        if tied > 1:
            group = _coarse_key(p)
            if group not in names:
                names[group] = [(n.lower(), n) for n in ArenaPlayer.objects.filter(arena=arena).filter(
                    _tied(p)).values_list("user__username", flat=True)]
            mine = _name_key(p)
            pos += sum(1 for n in names[group] if n < mine)
        out.append(_row(p, pos, playing))
    return out


def _coarse_order(qs):
    dq = Case(When(status=_DQ, then=Value(1)), default=Value(0), output_field=IntegerField())
    return qs.alias(dq=dq).order_by("dq", "-points", "-wins", F("reached_at").asc(nulls_last=True), "pk")


def window(arena: Arena, start: int, count: int) -> list[Row]:
    """The rows at places ``start + 1`` to ``start + count`` of the whole
    table (fewer at its end), in order, ranked. SQL orders by the coarse
    key; a tie on it that the window's first or last row belongs to is read
    whole and put in name order, so the window is exactly that slice of
    ``rows(arena)``. Four queries when neither edge splits a tie."""
    base = ArenaPlayer.objects.filter(arena=arena)
    got = list(_coarse_order(base).select_related("user")[start:start + count])
    if not got:
        return []
    first, last = got[0], got[-1]
    before, first_tie, last_tie = _counts(arena, [(first, "before"), (first, "tied"), (last, "tied")])
    by_pk = {p.pk: p for p in got}
    read = set()
    for edge, size in ((first, first_tie), (last, last_tie)):
        key = _coarse_key(edge)
        if key not in read and sum(1 for p in got if _coarse_key(p) == key) < size:
            read.add(key)  # the window cuts this tie: read it whole
            for p in base.filter(_tied(edge)).select_related("user"):
                by_pk.setdefault(p.pk, p)
    ordered = sorted(by_pk.values(), key=order_key)  # from place before + 1 on
    lo = start - before
    chosen = ordered[lo:lo + count]
    playing = playing_now(arena, [p.user_id for p in chosen])
    return [_row(p, start + 1 + i, playing) for i, p in enumerate(chosen)]


def count(arena: Arena) -> int:
    """How many rows the whole table has (disqualified players included)."""
    return ArenaPlayer.objects.filter(arena=arena).count()


def podium(arena: Arena) -> list[Row]:
    """The first three rows (fewer when fewer scored points)."""
    return [r for r in window(arena, 0, 3) if r.rank is not None and r.player.points > 0]


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


def page_number(value) -> int:
    """The standings page asked for by ``?page=``: a whole number from 1;
    anything else (missing, junk, 0, negative) is the first page."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return 1
    return number if number >= 1 else 1


def pages(total: int) -> int:
    """How many pages of PAGE_SIZE rows a table of ``total`` rows has (at least 1)."""
    return max(1, -(-total // PAGE_SIZE))


def page_links(number: int, last: int) -> list[int | None]:
    """The page numbers to link from page ``number`` of ``last``: the first,
    the last and the two either side of ``number``; None where some are left out."""
    shown = sorted({1, last, *range(max(1, number - 2), min(last, number + 2) + 1)})
    out: list[int | None] = []
    for n in shown:
        if out and n - out[-1] > 1:
            out.append(None)
        out.append(n)
    return out


def foot_context(total: int, number: int = 1) -> dict:
    """The line under page ``number`` of a table of ``total`` rows: the
    ``total``, the ``more`` rows not on the first page (0 on the others),
    ``first`` and ``shown_to`` (the places the page covers), ``page``,
    ``pages`` and ``links`` (``page_links``; [] for a single page)."""
    last = pages(total)
    start = (number - 1) * PAGE_SIZE
    shown = max(0, min(total, start + PAGE_SIZE) - start)
    return {
        "total": total, "more": max(0, total - shown) if number == 1 else 0,
        "first": start + 1, "shown_to": start + shown, "page": number, "pages": last,
        "links": page_links(number, last) if last > 1 else [],
    }


def table_context(arena: Arena, number: int, me: ArenaPlayer | None = None) -> dict:
    """What page ``number`` (1 = first) of the standings shows: its ``rows``
    (PAGE_SIZE of them), ``live`` (the first page only: pushed rows move in
    it), ``shown`` (PAGE_SIZE), the viewer's ``own`` row (a Row, on the first
    page when ``me`` is not in it; else None), ``gap`` (rows between the page
    and it), ``me_pk``, and ``foot_context``. Raises ValueError for a page
    that is not there (below 1 or past the last)."""
    total = count(arena)
    if not 1 <= number <= pages(total):
        raise ValueError(f"page {number} of {pages(total)}")
    shown = window(arena, (number - 1) * PAGE_SIZE, PAGE_SIZE)
    own = None
    if number == 1 and me is not None and all(r.player.pk != me.pk for r in shown):
        own = next(iter(some_rows(arena, [me.pk])), None)
    return {
        "rows": shown, "live": number == 1, "shown": PAGE_SIZE, "own": own,
        "gap": bool(own and own.pos > len(shown) + 1), "me_pk": me.pk if me is not None else None,
        **foot_context(total, number),
    }


def me_context(arena: Arena, user, now, me: ArenaPlayer | None = None, playing: str | None = None) -> dict:
    """What the viewer's own block (Join, Withdraw, Pause, Resume, and
    where they stand) shows: the ``viewer`` (``user``, maybe anonymous), the
    arena and its ``phase``, their entry ``me`` (looked up when not given)
    and the public id of the arena match they are ``playing`` ("" if none)."""
    if me is None and user is not None and user.is_authenticated:
        me = ArenaPlayer.objects.filter(arena=arena, user=user).first()
    if me is not None and playing is None:
        playing = playing_now(arena, [me.user_id]).get(me.user_id, "")
    return {"viewer": user, "arena": arena, "phase": arena.phase(now), "me": me, "playing": playing or ""}
