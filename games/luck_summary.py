"""The dice in numbers, stored and read (docs/features.md "The dice in
numbers"): one ``SeatLuck`` row per seat, written once when a match ends
(``record_match_end``, called by ``games.actions.finish.end`` in the
transaction that ends it); the finished match's table (``match_table``) and
the profile's sums (``profile_dice``) read those rows, never a record.

What it costs at the end of a match: one query for the record's notations,
a replay of the record with the engine (a few milliseconds for a long
match), and one insert of a row per seat. Nothing per move.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from games import luck, sites
from games.engine import EngineError
from games.models import Move, SeatLuck

log = logging.getLogger(__name__)


def rows_for(match, seats, notations) -> list[SeatLuck]:
    """Unsaved SeatLuck rows for ``seats`` (Seat rows of ``match``) from the
    whole record ``notations``; [] for a game without dice in numbers or a
    record the engine refuses (logged: nothing is shown that the engine
    could not vouch for)."""
    try:
        tallies = luck.tally(match.kind, match.start_state, notations)
    except EngineError as e:
        log.warning("match %s: no dice in numbers, the record does not replay: %s", match.public_id, e)
        return []
    return [
        SeatLuck(seat=s, user_id=s.user_id, kind=match.kind, public=match.is_public,
                 counts=tallies[s.index][0], expected=tallies[s.index][1])
        for s in seats if s.index in tallies
    ]


def record_match_end(match, seats, new_moves) -> None:
    """Write each seat's SeatLuck row for ``match``, which is ending in the
    caller's transaction: its stored record plus ``new_moves`` (the Move rows
    of the ending change, not saved yet). Raises nothing for a bad record."""
    stored = list(Move.objects.filter(match=match, ply__lt=match.ply_count)
                  .order_by("ply").values_list("notation", flat=True))
    rows = rows_for(match, seats, stored + [m.notation for m in new_moves])
    SeatLuck.objects.bulk_create(rows, ignore_conflicts=True)


@dataclass(frozen=True)
class MatchDice:
    """A finished match's "Dice in numbers" table: ``rules`` (the game's
    LuckRules), ``rows`` (a ``luck.SeatDice`` per seat, by index) and
    ``headings`` (its game columns' headings, in order); ``bots``: the seat
    indexes of bot accounts (marked BOT in the table)."""

    rules: luck.LuckRules
    rows: list[luck.SeatDice]
    headings: list[str]
    bots: frozenset = frozenset()

    @property
    def count(self) -> int:
        return sum(r.count for r in self.rows)


def match_table(match, seats) -> MatchDice | None:
    """The table of an ended ``match`` with ``seats`` (its Seat rows, users
    loaded), or None: a live match (never shown while it is played), a game
    without dice in numbers, or no stored rows. One query."""
    if not match.is_over:
        return None
    lr = luck.luck_rules(match.kind)
    if lr is None:
        return None
    stored = {r.seat_id: r for r in SeatLuck.objects.filter(seat__match=match)}
    rows = [luck.seat_dice(lr, s.index, s.display_name, stored[s.pk].counts, stored[s.pk].expected)
            for s in seats if s.pk in stored]
    if not rows:
        return None
    bots = frozenset(s.index for s in seats if s.user_id and s.user.is_bot)
    return MatchDice(lr, rows, [c.heading for c in rows[0].columns], bots)


@dataclass(frozen=True)
class GameDice:
    """A player's dice in one game over their ended matches (the profile):
    ``kind``, ``label``, ``rules``, ``matches``, ``row`` (a ``luck.SeatDice``
    of the summed counts) and ``verdict`` (``luck.Verdict`` or None)."""

    kind: str
    label: str
    rules: luck.LuckRules
    matches: int
    row: luck.SeatDice
    verdict: luck.Verdict | None
    bars: list = ()

    @property
    def chart_width(self) -> int:
        """The chart's width in SVG units (its viewBox adds 2 a side)."""
        return BAR_STEP * len(self.bars)

    @property
    def chart_px(self) -> int:
        """The chart's width on the page: twice its SVG units (CSS narrows it to fit)."""
        return 2 * (self.chart_width + 4)


#: The profile's chart of the test's cells: each bar BAR_STEP wide (SVG
#: units), CHART_HEIGHT tall at the largest of the counts and expectations.
BAR_STEP = 24
CHART_HEIGHT = 80


@dataclass(frozen=True)
class Bar:
    """One cell of the profile's chart: ``label`` ("6", "1-2"), ``observed``
    and ``expected`` counts, and the SVG geometry: ``x``, ``y`` and ``height``
    of the bar, ``expected_y`` of the fair line."""

    label: str
    observed: int
    expected: float
    x: int
    y: float
    height: float
    expected_y: float


def bars(lr: luck.LuckRules, counts: list[int]) -> list[Bar]:
    """The chart of ``counts`` over the goodness-of-fit test's cells, each
    against what fair dice give for that many outcomes; [] without a test."""
    if lr.bins is None:
        return []
    n, share = sum(counts), 1 / len(lr.faces)
    cells = [(label, sum(counts[i] for i in faces), n * share * len(faces)) for label, faces in lr.bins]
    top = max(max(o, e) for _, o, e in cells) or 1
    out = []
    for i, (label, observed, expected) in enumerate(cells):
        height = round(CHART_HEIGHT * observed / top, 1)
        out.append(Bar(label, observed, expected, i * BAR_STEP, round(CHART_HEIGHT - height, 1), height,
                       round(CHART_HEIGHT - CHART_HEIGHT * expected / top, 1)))
    return out


def profile_dice(user, viewer) -> list[GameDice]:
    """``user``'s dice per game, over their ended matches as ``viewer`` may
    count them: all of them for the player themself, the public ones for
    anyone else. Games without dice, and games they have no roll in, are left out. One
    query (the index on user and kind), summed here."""
    rows = SeatLuck.objects.filter(user=user)
    if viewer is None or viewer.pk != user.pk:
        rows = rows.filter(public=True)
    by_kind: dict[str, list] = {}
    for kind, counts, expected in rows.values_list("kind", "counts", "expected"):
        by_kind.setdefault(kind, []).append((counts, expected))
    out = []
    for kind, label in sites.choices():
        lr = luck.luck_rules(kind)
        if lr is None or lr.pips is None or kind not in by_kind:  # dice only, not tiles
            continue
        faces = len(lr.faces)
        counts = luck.add_counts([c for c, _ in by_kind[kind]], faces)
        if not sum(counts):
            continue
        expected = [0.0] * faces
        for _, e in by_kind[kind]:
            if len(e) == faces:
                expected = [a + b for a, b in zip(expected, e, strict=True)]
        row = luck.seat_dice(lr, -1, user.display_name, counts, expected)
        out.append(GameDice(kind, label, lr, len(by_kind[kind]), row, luck.verdict(lr, counts),
                            bars(lr, counts)))
    return out
