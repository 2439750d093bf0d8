"""The dice in numbers (docs/features.md "The dice in numbers"): each seat's
chance outcomes in an ended match against what fair chance gives, a luck
figure per seat, and a player's dice over many matches with a goodness-of-fit
verdict. Pure Python (the engine, the game folders' ``luck`` modules and
``games.stats``), so the data migration and the tests can use it as it is.

Everything here is computed from the record (the Move rows' notation, the
same moves the export lists and ``games.engine.fair.verify_record`` replays):
the record is replayed from the start state, and at each chance step the
game's folder says whose outcome it is and which face it shows
(``<game>/luck.py``, ``LUCK``, a ``LuckRules``). A game without that module
has no dice in numbers.

The luck figure of a seat is a z-score of its pips: (the pips its dice
showed - the pips fair dice give on average for that many rolls) / the
standard deviation of that sum, so 0 is exactly average, +1 is one standard
deviation luckier, and about 95 of 100 seats of fair dice land between -2
and +2. A game whose outcomes have no order of better and worse (Rondo's
tile colours) has none.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from games import stats
from games.engine import CHANCE, get_rules
from games.folders import game_module

__all__ = [
    "Column", "LuckRules", "SeatDice", "Verdict", "add_counts", "luck_figure", "luck_rules",
    "seat_dice", "tally", "verdict",
]

#: The goodness-of-fit test says nothing until every cell expects at least
#: this many outcomes (Cochran's rule for Pearson's chi-square).
MIN_EXPECTED = 5
#: p-values below these make the verdict "unusual" and "very unusual".
UNUSUAL_P = 0.05
VERY_UNUSUAL_P = 0.001


def _number(value: float, places: int) -> str:
    """``value`` rounded to ``places`` decimals as Python rounds it ("3.50"),
    written the active language's way ("3,50" in German); Django's
    ``number_format`` alone would cut the digits off instead of rounding."""
    return number_format(Decimal(f"{value:.{places}f}"), places)


@dataclass(frozen=True)
class Column:
    """One cell of a seat's row in the "Dice in numbers" table: ``key`` (its
    data attribute, "sixes"), ``heading`` ("Sixes"), ``value`` (a number, or
    words), ``expected`` (what fair chance gives for that many outcomes, or
    None when there is nothing to compare), ``detail`` (words under them:
    which doubles)."""

    key: str
    heading: str
    value: float | int | str | None
    expected: float | None = None
    detail: str = ""

    @property
    def shown(self) -> str:
        """``value`` as the table writes it: words as they are, a mean to two
        decimals, a count whole; "–" for none."""
        v = self.value
        if v is None:
            return "–"
        return _number(v, 2) if isinstance(v, float) else str(v)

    @property
    def is_words(self) -> bool:
        """Whether ``value`` is words ("1-1 ×2, 6-6 ×1"), not a number."""
        return isinstance(self.value, str)

    @property
    def expected_shown(self) -> str:
        """``expected`` to one decimal, or "" when there is nothing to compare."""
        return "" if self.expected is None else _number(self.expected, 1)


@dataclass(frozen=True)
class LuckRules:
    """What a game's folder tells the dice in numbers (``<game>/luck.py``: ``LUCK``).

    - ``faces``: the outcomes counted, one name each ("1".."6"; "1-1".."6-6"
      ordered; tile colours).
    - ``step(state, move)``: at a chance step (the engine state before it,
      the recorded outcome as a move), ``(owner seat, face index,
      probabilities of every face at this step)``, or None for a step not
      counted (who starts, a roll-off).
    - ``unit``: what one outcome is called ("roll", "tile"); ``units``: plural.
    - ``pips``: each face's value for the luck figure, or None for no figure.
    - ``columns(counts, expected)``: the table's cells for one seat.
    - ``bins``: the goodness-of-fit test's cells, (label, face indices), or
      None: no test. ``test_words``: what the test compares, in words.
    """

    faces: tuple[str, ...]
    step: Callable[[object, object], tuple[int, int, Sequence[float]] | None]
    columns: Callable[[list[int], list[float]], list[Column]]
    unit: str = "roll"
    units: str = "rolls"
    pips: tuple[int, ...] | None = None
    bins: tuple[tuple[str, tuple[int, ...]], ...] | None = None
    test_words: str = ""

    @property
    def fair_mean(self) -> float:
        """The mean pips of one outcome of fair dice (every face equally likely)."""
        return sum(self.pips) / len(self.pips)

    @property
    def fair_variance(self) -> float:
        """The variance of one outcome's pips under fair dice."""
        mean = self.fair_mean
        return sum((p - mean) ** 2 for p in self.pips) / len(self.pips)


@functools.cache
def luck_rules(kind: str) -> LuckRules | None:
    """Game ``kind``'s ``LuckRules``, or None when its folder has no ``luck``
    module (or the game is not registered)."""
    try:
        module = game_module(kind, "luck", optional=True)
    except ValueError:  # UnknownGameError: a record of a game the site no longer has
        return None
    return None if module is None else module.LUCK


def tally(kind: str, start_state: dict, notations: Sequence[str]) -> dict[int, tuple[list[int], list[float]]]:
    """Each seat's counted chance outcomes in the record ``notations`` (move
    notation, ply 0 on), replayed from ``start_state`` (a dump): seat index ->
    (count of each face, the fair expectation of each face over that seat's
    steps). Every seat of the match is present, with zeros when it had no
    outcome. Empty for a game without ``LuckRules``. Raises the engine's
    errors (``EngineError``) for a record it refuses."""
    lr = luck_rules(kind)
    if lr is None or start_state is None:
        return {}
    rules = get_rules(kind)
    state = rules.load(start_state)
    faces = len(lr.faces)
    out = {i: ([0] * faces, [0.0] * faces) for i in range(len(rules.seat_status(state)))}
    for text in notations:
        if rules.to_move(state) == CHANCE:
            move = rules.parse_move(text)
            counted = lr.step(state, move)
            if counted is not None:
                owner, face, probabilities = counted
                counts, expected = out.setdefault(owner, ([0] * faces, [0.0] * faces))
                counts[face] += 1
                for i, p in enumerate(probabilities):
                    expected[i] += p
            state = rules.play(state, move)
        else:
            state = rules.play(state, text)
    return out


def add_counts(rows: Sequence[Sequence[int]], faces: int) -> list[int]:
    """The face-by-face sum of count lists (a player's rows); rows of another
    length (a game whose faces changed) are skipped."""
    total = [0] * faces
    for row in rows:
        if len(row) == faces:
            for i, c in enumerate(row):
                total[i] += c
    return total


def luck_figure(lr: LuckRules, counts: Sequence[int]) -> float | None:
    """The luck figure of ``counts`` (this module's docstring): the z-score
    of their pips against fair dice; None without outcomes or without pips."""
    if lr.pips is None:
        return None
    n = sum(counts)
    pips = sum(c * p for c, p in zip(counts, lr.pips, strict=True))
    return stats.z_score(pips, n, lr.fair_mean, lr.fair_variance)


@dataclass(frozen=True)
class SeatDice:
    """One seat's row of the table: ``seat`` index, ``label`` (its name),
    ``count`` (outcomes), ``columns``, ``luck`` (the luck figure or None) and
    ``luckier`` (the share of fair-dice seats with that many rolls that would
    have had fewer pips, 0..1, or None)."""

    seat: int
    label: str
    count: int
    columns: list[Column]
    luck: float | None
    luckier: float | None

    @property
    def meter_x(self) -> float | None:
        """Where the luck figure sits on the table's meter, an SVG 120 wide
        whose middle (60) is 0 and ends are -3 and +3 (clamped)."""
        if self.luck is None:
            return None
        return round(60 + 18 * max(-3.0, min(3.0, self.luck)), 1)

    @property
    def luck_shown(self) -> str:
        """The luck figure signed, to two decimals ("+1.25", "−0.40"), or "–"."""
        if self.luck is None:
            return "–"
        return ("+" if self.luck >= 0 else "\u2212") + _number(abs(self.luck), 2)

    @property
    def luckier_percent(self) -> int | None:
        """``luckier`` as a whole percentage, 1..99 (never a certainty)."""
        return None if self.luckier is None else min(99, max(1, round(100 * self.luckier)))


def seat_dice(lr: LuckRules, seat: int, label: str, counts: list[int], expected: list[float]) -> SeatDice:
    """The table row of one seat from its stored counts and expectations."""
    z = luck_figure(lr, counts)
    luckier = None if z is None else 1.0 - stats.normal_sf(z)
    return SeatDice(seat, label, sum(counts), lr.columns(counts, expected), z, luckier)


@dataclass(frozen=True)
class Verdict:
    """The profile's goodness-of-fit verdict over a player's outcomes of one game.

    ``count``: outcomes; ``needed``: the fewest for which the test says
    anything (every cell expects ``MIN_EXPECTED``); ``statistic``, ``dof``,
    ``p_value``: Pearson's chi-square (None below ``needed``); ``word``:
    "too-few", "fair", "unusual" or "very-unusual"; ``text``: the verdict
    in plain words."""

    count: int
    needed: int
    statistic: float | None
    dof: int | None
    p_value: float | None
    word: str
    text: str


def verdict(lr: LuckRules, counts: Sequence[int]) -> Verdict | None:
    """The goodness-of-fit verdict on ``counts`` (a player's summed faces),
    or None for a game without a test (``bins`` None)."""
    if lr.bins is None:
        return None
    share = 1 / len(lr.faces)
    probabilities = [len(faces) * share for _, faces in lr.bins]
    observed = [sum(counts[i] for i in faces) for _, faces in lr.bins]
    n = sum(observed)
    needed = math.ceil(MIN_EXPECTED / min(probabilities) - 1e-9)
    if n < needed:
        return Verdict(n, needed, None, None, None, "too-few",
                       _("Too few %(units)s to say: the test needs at least %(needed)s "
                         "and there are %(count)s.")
                       % {"units": lr.units, "needed": needed, "count": n})
    statistic, dof, p = stats.chi_square(observed, probabilities)
    if p < VERY_UNUSUAL_P:
        word, text = "very-unusual", (
            _("Very unusual dice: fair dice land this far from the expected shape in fewer than one "
              "player's %(units)s in 1,000 (p = %(p)s). Every roll is still checked against its seed.")
            % {"units": lr.units, "p": f"{p:.2g}"})
    elif p < UNUSUAL_P:
        word, text = "unusual", (
            _("Somewhat unusual dice (p = %(p)s): about one player in %(one_in)s sees "
              "%(units)s this far from the expected shape by chance alone.")
            % {"units": lr.units, "p": f"{p:.2g}", "one_in": max(2, round(1 / p))})
    else:
        word, text = "fair", (
            _("Nothing unusual: these %(units)s look like fair dice (p = %(p)s; below 0.05 would "
              "be worth a second look).")
            % {"units": lr.units, "p": f"{p:.2g}"})
    return Verdict(n, needed, statistic, dof, p, word, text)
