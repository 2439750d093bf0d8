"""What every match action shares: reading the version a caller sent,
locking and loading the match, the change record (``Change``: plies applied
to the engine state, seats touched, effects to send after commit) and its
save, which pushes the change's frames after commit (``games.push``)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import prepared
from games import push
from games.actions.errors import BadMove, MatchNotFound, NoSeat, NotAllowed, StaleVersion
from games.engine import EngineError, get_rules
from games.models import Match, Move, Seat
from games.time_controls import DAY

log = logging.getLogger(__package__)


def parse_version(version) -> int:
    """The version a caller sent, or -1 for anything that is not one (which
    then fails the version check like any stale version)."""
    try:
        value = int(version)
    except (TypeError, ValueError, OverflowError):
        return -1
    return value if value >= 0 else -1


# The starting state is for the record and replays; no action reads it.
_LOCK = prepared.PreparedSelect(
    lambda public_id: Match.objects.select_for_update().defer("start_state").filter(public_id=public_id), "x"
)


def lock(public_id: str) -> Match:
    """The match row, locked (PostgreSQL) for this transaction; raises MatchNotFound."""
    rows = _LOCK.fetch(str(public_id)[:16])
    if not rows:
        raise MatchNotFound(_("There is no such match."))
    return rows[0]


def user_seat(match: Match, user, seats=None) -> Seat:
    """``user``'s seat (from ``seats`` when already loaded); raises NoSeat (a NotAllowed)."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise NoSeat(_("Log in to play."))
    if seats is not None:
        seat = next((s for s in seats if s.user_id == user.pk), None)
    else:
        seat = match.seats.filter(user_id=user.pk).select_related("user").first()
    if seat is None:
        raise NoSeat(_("You have no seat in this match."))
    return seat


def require_live(match: Match) -> None:
    """Raises NotAllowed unless ``match`` is being played (not paused, not over)."""
    if match.status == Match.Status.PAUSED:
        raise NotAllowed(_("The match is paused."))
    if match.status != Match.Status.ACTIVE:
        raise NotAllowed(_("The match is not being played."))


def allowance() -> timedelta:
    """How long after its deadline a move may still arrive (README "Decisions")."""
    return timedelta(seconds=settings.PARLOUR_MOVE_ALLOWANCE_SECONDS)


# What an action and its frames read of a seat and its user (a user row has
# many more columns; loading them was a good part of every move's cost). ``is_bot``:
# the seats list marks a bot's name (BOT), read from this row, never a query of its own.
_SEAT_FIELDS = (*(f.name for f in Seat._meta.concrete_fields), "user__username", "user__banned_until",
                "user__is_bot")
_SEATS = prepared.PreparedSelect(
    lambda match_id: Seat.objects.filter(match_id=match_id).select_related("user").only(*_SEAT_FIELDS), 1
)
#: The match columns an action may change (save() writes them all, guarded by the version).
_MATCH_CHANGES = ("status", "state", "version", "ply_count", "deadline", "deadline_task_at",
                  "computer_due_at", "seat_to_move", "paused_remaining", "host", "end_reason", "started_at",
                  "finished_at", "updated_at")
#: Those of a turn-based match: its holidays too (games.actions.clock); a live move writes no more.
_TURN_BASED_CHANGES = (*_MATCH_CHANGES, "holiday_credit")


@dataclass
class Change:
    """One accepted change to a locked match: plies applied to the engine
    state, the Move rows they make, seats touched, effects to send after commit.

    What a change may do besides applying plies lives with its verb:
    ``advance.advance`` (chance, forced moves, the next decision),
    ``leave.remove_seat``, ``finish.end``."""

    match: Match
    rules: object = None
    state: object = None
    moves: list = field(default_factory=list)
    seats: dict = field(default_factory=dict)
    after_commit: list = field(default_factory=list)

    def __post_init__(self):
        self.rules = get_rules(self.match.kind)
        self.state = self.before = self.rules.load(self.match.state)
        self.seats = {}
        for seat in _SEATS.fetch(self.match.pk):
            seat.match = self.match
            self.seats[seat.index] = seat
        self._dirty_seats = set()
        self._seats_before = {i: (s.status, s.missed_turns, s.rank) for i, s in self.seats.items()}
        self._status_before = self.match.status
        self._to_move_before = self.rules.to_move(self.state)

    @property
    def to_move(self):
        return self.rules.to_move(self.state)

    def seat(self, index: int) -> Seat:
        """Seat ``index``, to be changed: ``save`` writes it if it did change."""
        self._dirty_seats.add(index)
        return self.seats[index]

    def parse_legal(self, notation):
        """The legal move written ``notation``; raises BadMove. Server events
        (timeout, leave) are never legal for a player."""
        text = str(notation)[:64]
        try:
            move = self.rules.parse_move(text)
        except EngineError as e:
            raise BadMove(str(e)) from None  # it names the text (Rules.parse_move)
        if move not in self.rules.legal_moves(self.state):
            raise BadMove(_("%(move)s is not a legal move now.") % {"move": move})
        return move

    def apply(self, move, actor: str, seat: int | None, chance_index: int | None = None) -> None:
        """Play ``move`` on the state and record its Move row (``actor``: a
        ``Move.Actor``; ``seat``: the seat index it is for, None for chance)."""
        self.state = self.rules.play(self.state, move)
        self.moves.append(
            Move(
                match=self.match,
                ply=self.match.ply_count + len(self.moves),
                actor=actor,
                seat=seat,
                notation=str(move),
                chance_index=chance_index,
                version_after=self.match.version + 1,
            )
        )

    def save(self) -> None:
        """Write it all, guarded by the version read; effects after commit.
        Raises StaleVersion when another writer got there first."""
        match = self.match
        old = match.version
        match.version = old + 1
        match.ply_count += len(self.moves)
        match.state = self.rules.dump(self.state)
        match.updated_at = timezone.now()
        changes = _TURN_BASED_CHANGES if match.turn_seconds >= DAY else _MATCH_CHANGES
        if prepared.update_row(match, changes, "version", old) != 1:
            raise StaleVersion(old + 1)  # another writer got there first (SQLite path)
        prepared.insert_rows(self.moves)
        changed_seats = set()
        for index in self._dirty_seats:
            s = self.seats[index]
            if (s.status, s.missed_turns, s.rank) != self._seats_before[index]:
                changed_seats.add(index)
                Seat.objects.filter(pk=s.pk).update(
                    status=s.status, missed_turns=s.missed_turns, rank=s.rank
                )

        public_id, version = match.public_id, match.version
        # Controls change only for the seats that were or are to move, seats
        # that changed, and the host (pause); all of them when the status did.
        if match.status != self._status_before:
            controls = set(self.seats)
        else:
            controls = {self._to_move_before, self.to_move} | changed_seats
            controls |= {i for i, s in self.seats.items() if s.user_id and s.user_id == match.host_id}
        seats, moves, state, before = list(self.seats.values()), list(self.moves), self.state, self.before
        transaction.on_commit(lambda: push.match_changed(match, seats, moves, state, controls, before))
        for effect in self.after_commit:
            transaction.on_commit(effect)
        # Plies are counted, never written out: a notation may one day carry a
        # hidden tile (Rondo), and logs are no place for it.
        log.info("match %s now v%s, %s plies (+%s)", public_id, version, match.ply_count, len(self.moves))
