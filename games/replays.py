"""What a replay needs, read from a match's record once and kept (README "Replays").

A replay shows the board after any ply of an ended match, its move in words, the
whole record and the fairness check. All of it follows from the record alone, and
the record of an ended match never changes (no action writes to it and the admin
is read-only), so it is worked out once per match and server process, on the first
replay request, and kept here (an LRU bounded by plies, ``PLIES_KEPT``):

- the record's moves, without the Django rows (``RecordedMove``);
- the engine state every ``KEYFRAME_PLIES`` plies, so a step replays at most
  ``KEYFRAME_PLIES - 1`` plies from the keyframe before it, and where the record
  stops replaying, if it does;
- per set of seat labels (they name the seats in the words) and language: the lines, each
  ply's lines, and the record list of the whole page rendered once (the ply's
  line marked per request);
- the fairness report (``fair.verify_record``), made on the first whole page.

A step (``Replay.position``, ``Replay.marks``, ``Wording.lines_at``) then costs the
few plies from a keyframe (engine states are never changed in place, so threads
share them) and a lookup, whatever the length of the match.

An entry is keyed by the match's id, creation time, version and ply count, so a
record that grows or a match made again (a test database reusing an id) is read
afresh. Why kept in memory and not stored: README "Replays".
"""

from __future__ import annotations

import bisect
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import NamedTuple

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games import marks, record
from games.engine import EngineError, fair, get_rules
from games.engine.base import RecordLine
from games.frames.moves import replay_turns
from games.models import Match, Move

#: A keyframe (an engine state kept) every this many plies.
KEYFRAME_PLIES = 32
#: Plies of the replays kept per process, all matches together; the least
#: recently used replay goes first. A replay with its whole-page record list
#: holds about 0.7 kB a ply (1.4 MB for 2,000 plies of Ludo), so at most about
#: 28 MB per process.
PLIES_KEPT = 40_000
#: A visitor's replay request that makes this process read the record counts,
#: against their address's budget (``PARLOUR_REPLAY_VISITOR_RATE``), one more
#: request per this many plies of it: reading this many plies, describing and
#: checking them costs about what one step does (docs/benchmarks.md "Replays").
BUILD_COST_PLIES = 100


class RecordedMove(NamedTuple):
    """One ply of the record as a replay reads it (a Move row's fields)."""

    ply: int
    actor: str
    seat: int | None
    notation: str
    version_after: int


@dataclass
class Wording:
    """The record in words for one set of seat labels (``Replay.wording``).

    ``lines``: every RecordLine (record.describe_record). ``turns``: them as
    the page lists them (replay_turns)."""

    lines: list[RecordLine]
    turns: list
    _by_ply: dict[int, list[RecordLine]]
    _line_plies: list[int]
    _html: str | None = None

    @classmethod
    def of(cls, lines: list[RecordLine], colours: dict) -> Wording:
        by_ply: dict[int, list[RecordLine]] = {}
        for line in lines:
            by_ply.setdefault(line.ply, []).append(line)
        return cls(lines, replay_turns(lines, colours), by_ply, sorted(by_ply))

    def lines_at(self, ply: int) -> list[RecordLine]:
        """The lines of the move at index ``ply`` of the record (0-based)."""
        return self._by_ply.get(ply, [])

    def record_ply(self, ply: int) -> int:
        """The position the record list marks after ``ply`` plies: one past
        the ply of the last line before it (a line may stand for several
        plies: a roll and the move it forced), 0 for none."""
        i = bisect.bisect_left(self._line_plies, ply)
        return self._line_plies[i - 1] + 1 if i else 0

    def html(self, ply: int) -> str:
        """The page's record list (``games/replay_record.html``) with the line
        of ``record_ply(ply)`` marked current, as the template marks it: the
        list is rendered once and each page only adds the mark."""
        if self._html is None:
            html = render_to_string("games/replay_record.html", {"turns": self.turns, "record_ply": -1})
            self._html = html.rstrip("\n")
        at = self.record_ply(ply)
        link = f'href="?ply={at}" data-ply="{at}"'
        return mark_safe(self._html.replace(link, f'{link} aria-current="step"'))


@dataclass
class Replay:
    """One ended match's record, read once (``get``).

    ``moves``: the record (RecordedMove, ply 0 first). ``good``: how many of
    them replay (``len(moves)`` unless the engine refuses one); ``error``: the
    engine's reason the next one does not, else None (``position`` says it in
    the reader's language). ``keyframes[i]``: the engine state after
    ``i * every`` plies (``every``: KEYFRAME_PLIES when it was built), for
    every such count up to ``good``."""

    kind: str
    moves: tuple[RecordedMove, ...]
    every: int
    keyframes: list
    good: int
    error: str | None
    _words: dict[tuple, Wording] = field(default_factory=dict)
    _report: fair.VerifyReport | None = None

    @classmethod
    def build(cls, match: Match) -> Replay:
        """Read ``match``'s record from the database and replay it once."""
        rows = Move.objects.filter(match=match).order_by("ply").values_list(
            "ply", "actor", "seat", "notation", "version_after")
        moves = tuple(RecordedMove(*row) for row in rows)
        rules = get_rules(match.kind)
        state = rules.load(match.start_state)
        every, keyframes, good, error = KEYFRAME_PLIES, [state], 0, None
        for m in moves:
            try:
                state = rules.play(state, m.notation)
            except EngineError as e:
                error = str(e)
                break
            good += 1
            if good % every == 0:
                keyframes.append(state)
        return cls(match.kind, moves, every, keyframes, good, error)

    @property
    def total(self) -> int:
        return len(self.moves)

    def state_at(self, ply: int):
        """The engine state after ``ply`` plies (0..``good``), from the
        keyframe at or before it."""
        rules = get_rules(self.kind)
        state = self.keyframes[ply // self.every]
        for m in self.moves[ply - ply % self.every : ply]:
            state = rules.play(state, m.notation)
        return state

    def position(self, ply: int) -> record.Position:
        """``record.position_at`` for this record: the position after ``ply``
        plies (clamped to 0..total); past a ply the engine refuses, the last
        position it reached, with the error."""
        ply = min(max(ply, 0), self.total)
        state = self.state_at(min(ply, self.good))
        error = None
        if ply > self.good:
            error = (_("The record does not replay at ply %(ply)s: %(error)s")
                     % {"ply": self.moves[self.good].ply, "error": self.error})
        rules = get_rules(self.kind)
        left = frozenset(i for i, status in enumerate(rules.seat_status(state)) if status == "left")
        return record.Position(ply, state, error, left)

    def marks(self, match: Match, ply: int, state) -> dict | None:
        """``marks.at`` for this record: the last board move's marks after
        ``ply`` plies, ``state`` the position then."""
        if ply > self.good:  # a record that stops replaying: the general way, which knows
            return marks.at(match, self.moves, ply, state)
        return marks.of_run(self.kind, self.moves[:ply], self.state_at, state)

    def wording(self, labels: dict[int, str], colours: dict) -> Wording:
        """The record in words naming each seat by ``labels`` (seat index ->
        "ada (red)"), listed with ``colours`` (seat index -> colour name), in
        the active language (each language's words are kept apart)."""
        key = (get_language(), tuple(sorted(labels.items())),
               tuple(sorted(colours.items(), key=lambda kv: kv[0])))
        found = self._words.get(key)
        if found is None:
            lines = record.describe_record(self.kind, self.moves, labels, self.keyframes[0])
            found = self._words.setdefault(key, Wording.of(lines, colours))
        return found

    def report(self, match: Match) -> fair.VerifyReport:
        """The fairness check of the whole record (``fair.verify_record``),
        made once."""
        if self._report is None:
            self._report = fair.verify_record(match.kind, match.seed, match.public_id, match.start_state,
                                              [m.notation for m in self.moves], match.seed_hash)
        return self._report


_kept: OrderedDict[tuple, Replay] = OrderedDict()
_kept_plies = 0
_lock = threading.Lock()


def _key(match: Match) -> tuple:
    return match.public_id, match.created_at, match.version, match.ply_count


def is_kept(match: Match) -> bool:
    """Whether this process holds ``match``'s replay (a request for it
    will not read the record)."""
    with _lock:
        return _key(match) in _kept


def get(match: Match) -> Replay:
    """``match``'s replay: the one kept, else read from its record now and
    kept. ``match``: a Match row as read for this request."""
    global _kept_plies
    key = _key(match)
    with _lock:
        found = _kept.get(key)
        if found is not None:
            _kept.move_to_end(key)
            return found
    built = Replay.build(match)  # outside the lock: other replays are served meanwhile
    with _lock:
        if key not in _kept:
            _kept[key] = built
            _kept_plies += built.total
            while _kept_plies > PLIES_KEPT and len(_kept) > 1:
                _, dropped = _kept.popitem(last=False)
                _kept_plies -= dropped.total
        return _kept[key]


def forget() -> None:
    """Drop every kept replay (tests that change a record by hand)."""
    global _kept_plies
    with _lock:
        _kept.clear()
        _kept_plies = 0
