"""The only writers of matches (STYLE habit 3): start, play, chance, time out,
computer moves, leave, pause, resume, finish.

Every action runs in one transaction, takes the match row's lock (PostgreSQL
``SELECT ... FOR UPDATE``; SQLite's IMMEDIATE transactions already serialise
writers) and saves with a conditional UPDATE on the version it read, so a
stale or repeated submission changes nothing. Each accepted action bumps
``Match.version`` by one, however many plies it records. Pushes and Celery
tasks leave only after commit (``push.py``, ``tasks.py``).

After any accepted change the match is *advanced*: chance steps are drawn with
the fair RNG (docs/rules.md "Provably fair randomness"), forced moves are played for
the seat when the match option allows, and the next decision gets its
deadline (a human) or its Celery task and retry time (a computer). Every
decision a match waits for has a time in the database that the sweeper finds
(``overdue_matches``, ``overdue_computer_moves``), so a lost task never stalls
a match (README "How live play works").
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from config import ratelimits
from games import prepared, sites, uptime
from games.engine import CHANCE, EngineError, fair, get_rules
from games.models import Match, Move, Seat

log = logging.getLogger(__name__)


#: The most plies one player action may hold (a Rondo turn: 5 placements + draw).
MAX_PLIES_PER_ACTION = 12
#: A host may pause one match at most this often (README "Decisions"); kept in Redis.
PAUSE_RATE = "3/10minute"

# -- errors ------------------------------------------------------------------


class ActionError(Exception):
    """A refused action; ``message`` is safe to show the user. Nothing changed."""

    code = "refused"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class MatchNotFound(ActionError):
    code = "not_found"


class StaleVersion(ActionError):
    """The caller acted on an old version; ``current`` is the version now."""

    code = "stale"

    def __init__(self, current: int):
        super().__init__(
            f"Your page is out of date: the match has moved on (it is at version {current}); "
            "here is the current position."
        )
        self.current = current


class NotAllowed(ActionError):
    code = "not_allowed"


class NotYourTurn(ActionError):
    code = "not_your_turn"


class BadMove(ActionError):
    code = "bad_move"


class TooLate(ActionError):
    """The move arrived after its deadline and the network allowance
    (``PARLOUR_MOVE_ALLOWANCE_SECONDS``); it was not played, and the turn's
    timeout has been applied (README "Decisions")."""

    code = "too_late"

    def __init__(self):
        super().__init__("Too late: your time ran out before this move arrived, so it was not played.")


# -- seats -----------------------------------------------------------------


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat: a user, or a computer level ("easy", "normal", "strong").
    ``since``: when that user took their seat (a room's join time; default:
    the match's creation), which orders "longest-seated" (docs/rules.md "Pauses")."""

    user: object | None = None
    computer_level: str = ""
    since: object | None = None

    def __post_init__(self):
        if (self.user is None) == (not self.computer_level):
            raise ValueError("a seat is either a user or a computer level")


# -- creating and starting --------------------------------------------------


def create_match(
    kind: str,
    seats: list[SeatSpec],
    *,
    options: dict | None = None,
    host=None,
    rated: bool = False,
    is_public: bool = True,
    computer_speed: str = "normal",
    turn_seconds: int | None = None,
    idle_limit: int = 3,
    theme: str = "plain",
    state: dict | None = None,
    seed: bytes | None = None,
) -> Match:
    """A new match in status ``waiting`` with its seats; not started.

    ``state`` (an engine ``dump``) and ``seed`` (32 bytes) are for tests only
    (see ``tests/factories.py``); normally a fresh match and a fresh secret
    seed. Raises the engine's ``InvalidOptionsError`` (a ValueError) for a bad
    player count or options.
    """
    rules = get_rules(kind)
    if state is None:
        engine_state = rules.new_match(len(seats), options)
    else:
        engine_state = rules.load(state)
    dumped = rules.dump(engine_state)
    seed = seed if seed is not None else fair.new_seed()
    colours = [s["colour"] for s in rules.view(engine_state, None)["seats"]]
    if len(colours) != len(seats):
        raise ValueError(f"{len(seats)} seats for a {len(colours)}-player state")
    with transaction.atomic():
        match = Match.objects.create(
            kind=kind,
            options=dict(options or {}),
            host=host,
            rated=rated,
            is_public=is_public,
            computer_speed=computer_speed,
            turn_seconds=turn_seconds or sites.turn_seconds(kind),
            idle_limit=idle_limit,
            theme=theme,
            start_state=dumped,
            state=dumped,
            seed=seed.hex(),
            seed_hash=fair.commitment(seed),
        )
        Seat.objects.bulk_create(
            Seat(
                match=match,
                index=i,
                colour=colours[i],
                user=spec.user,
                computer_level=spec.computer_level,
            )
            for i, spec in enumerate(seats)
        )
        for i, spec in enumerate(seats):
            if spec.since is not None:  # auto_now_add ignores a given value
                Seat.objects.filter(match=match, index=i).update(joined_at=spec.since)
    return match


def start_match(public_id: str) -> Match:
    """Start a waiting match: draw the opening chance steps, set the first deadline."""
    with transaction.atomic():
        match = _lock(public_id)
        if match.status != Match.Status.WAITING:
            raise NotAllowed("This match has already started.")
        change = _Change(match)
        match.status = Match.Status.ACTIVE
        match.started_at = timezone.now()
        change.advance()
        change.save()
    return change.match


# -- players' moves ----------------------------------------------------------


def play_move(public_id: str, user, notation: str | list[str], version: int | str | None) -> Match:
    """Play ``notation`` for ``user``'s seat, made against ``version``.

    ``notation`` may be a list: a turn of several plies by the same seat (a
    Rondo chain), applied in order in one transaction, all or nothing (at most
    MAX_PLIES_PER_ACTION).

    Raises ``MatchNotFound``, ``StaleVersion`` (old or missing version: the
    caller should show the current position), ``NotAllowed`` (no seat, the
    seat has left, the match is not live), ``NotYourTurn`` or ``BadMove``
    (does not parse, or the rules forbid it): nothing changes on these.
    ``TooLate``: the move arrived more than ``PARLOUR_MOVE_ALLOWANCE_SECONDS``
    after the deadline; it is not played and the turn's timeout is applied
    at once (``expire_turn``), without waiting for a worker.
    """
    version = _parse_version(version)
    try:
        return _play_move(public_id, user, notation, version)
    except TooLate:
        # The deadline is the rule: the timeout applies now, whether or not
        # a worker is there to run the deadline task (README "Decisions").
        expire_turn(public_id, version)
        raise


def _play_move(public_id: str, user, notation, version: int) -> Match:
    with transaction.atomic():
        match = _lock(public_id)
        if version != match.version:
            raise StaleVersion(match.version)
        change = _Change(match)
        seat = _user_seat(match, user, change.seats.values())
        _require_live(match)
        if seat.status != Seat.Status.PLAYING:
            raise NotAllowed("You have left this match.")
        if seat.user.is_banned:  # README "Moderation": banned players send no moves
            raise NotAllowed("Your account is banned, so you cannot play.")
        notations = notation if isinstance(notation, list) else [notation]
        if not 1 <= len(notations) <= MAX_PLIES_PER_ACTION:
            raise BadMove(f"Send between 1 and {MAX_PLIES_PER_ACTION} moves at once.")
        if change.to_move == seat.index and _too_late(match):
            raise TooLate()
        for i, text in enumerate(notations):
            if change.to_move != seat.index:
                if i:
                    raise BadMove("Those moves cannot all be played in one go.")
                raise NotYourTurn("It is not your turn.")
            change.apply(change.parse_legal(text), Move.Actor.SEAT, seat.index)
        change.seat(seat.index).missed_turns = 0
        change.advance()
        change.save()
    return change.match


def play_computer_move(public_id: str, version: int, notation: str) -> Match | None:
    """Play a computer seat's chosen move if the match is still at ``version``.

    Returns None (and changes nothing) when the match moved on, ended, or the
    seat to move is not a computer: a late or duplicate task is a no-op.
    """
    with transaction.atomic():
        try:
            match = _lock(public_id)
        except MatchNotFound:
            return None
        if match.version != version or match.status != Match.Status.ACTIVE:
            return None
        change = _Change(match)
        to_move = change.to_move
        if to_move is None or to_move == CHANCE or not change.seat(to_move).is_computer:
            return None
        move = change.parse_legal(notation)
        change.apply(move, Move.Actor.SEAT, to_move)
        change.advance()
        change.save()
    return change.match


# -- the clock -------------------------------------------------------------


def expire_turn(public_id: str, version: int) -> Match | None:
    """The seat to move missed its decision: record the engine's
    ``timeout_move`` for it (``timeout``; a Golden Rule offer's ``decline``,
    which is not counted as a missed turn).

    Three missed turns in a row (the match's ``idle_limit``) idle the seat
    out: a ``leave`` follows (docs/rules.md "Idle seats"). No-op (returns None) when
    the match moved on, is not live, or its deadline and the network
    allowance (``PARLOUR_MOVE_ALLOWANCE_SECONDS``) have not passed.

    A deadline that passed while the site was down (``uptime.was_down_at``)
    is not a missed turn: the seat gets a fresh turn time instead (a new
    deadline, ``turn_seconds`` from now; README "Decisions").
    """
    with transaction.atomic():
        try:
            match = _lock(public_id)
        except MatchNotFound:
            return None
        now = timezone.now()
        if (
            match.version != version
            or match.status != Match.Status.ACTIVE
            or match.deadline is None
            or match.deadline + _allowance() > now
        ):
            # A task that ran early (clocks) for the current version tries again.
            _hand_over_deadline(match, again=match.version == version)
            return None
        change = _Change(match)
        seat_index = change.to_move
        if seat_index is None or seat_index == CHANCE:
            return None
        if uptime.was_down_at(match.deadline, now):
            log.warning("match %s v%s: its deadline passed while the site was down; a fresh turn",
                        match.public_id, match.version)
            change.advance()  # the same seat, a new deadline
            change.save()
            return change.match
        move = change.rules.timeout_move(change.state)
        # A legal move here is the seat's own answer, not a missed turn: a
        # Roundabout Golden Rule offer that times out is a decline (docs/rules.md "Turn timer").
        missed = move not in change.rules.legal_moves(change.state)
        change.apply(move, Move.Actor.SERVER, seat_index)
        seat = change.seat(seat_index)
        if missed:
            seat.missed_turns += 1
        if seat.missed_turns >= match.idle_limit:
            change.remove_seat(seat_index, Seat.Status.IDLE_OUT)
        change.advance()
        change.save()
    return change.match


def overdue_matches(grace_seconds: float | None = None) -> list[tuple[str, int]]:
    """(public id, version) of live matches whose deadline passed over
    ``grace_seconds`` ago (default: the network allowance,
    ``PARLOUR_MOVE_ALLOWANCE_SECONDS``): the sweeper expires these when their
    task was lost."""
    grace = _allowance() if grace_seconds is None else timedelta(seconds=grace_seconds)
    cutoff = timezone.now() - grace
    return list(
        Match.objects.filter(status=Match.Status.ACTIVE, deadline__lt=cutoff).values_list(
            "public_id", "version"
        )
    )


def overdue_computer_moves() -> list[tuple[str, int]]:
    """(public id, version) of live matches whose computer move is past its
    retry time (``Match.computer_due_at``): its task was lost or is stuck."""
    return list(
        Match.objects.filter(
            status=Match.Status.ACTIVE, computer_due_at__lt=timezone.now()
        ).values_list("public_id", "version")
    )


def resend_computer_move(public_id: str, version: int) -> bool:
    """Send the computer's move at ``version`` again, now, and move its retry
    time ``PARLOUR_COMPUTER_RETRY_SECONDS`` on. A retry, never a timeout: no
    move is recorded and the version does not change; the move is played
    once however many tasks run, since each plays only at ``version``
    (``play_computer_move``). Returns False (and sends nothing) when the
    match moved on, is not live, or the retry time has not come."""
    with transaction.atomic():
        try:
            match = _lock(public_id)
        except MatchNotFound:
            return False
        now = timezone.now()
        if (
            match.version != version
            or match.status != Match.Status.ACTIVE
            or match.computer_due_at is None
            or match.computer_due_at > now
        ):
            return False
        due = now + timedelta(seconds=settings.PARLOUR_COMPUTER_RETRY_SECONDS)
        if not Match.objects.filter(pk=match.pk, version=version).update(computer_due_at=due):
            return False
        transaction.on_commit(lambda: _send_computer_move(public_id, version, None))
    return True


# -- leaving, pausing ----------------------------------------------------------


def leave_match(public_id: str, user) -> Match:
    """``user`` leaves the match: their pieces leave the board, the others go on
    (docs/rules.md "Leaving"). A match with no human left is aborted. Any version;
    also while paused. A leaving host hands the role on (docs/rules.md "Pauses")."""
    with transaction.atomic():
        match = _lock(public_id)
        seat = _user_seat(match, user)
        if match.status != Match.Status.PAUSED:
            _require_live(match)
        if seat.status != Seat.Status.PLAYING:
            raise NotAllowed("You have already left this match.")
        change = _Change(match)
        change.remove_seat(seat.index, Seat.Status.LEFT)
        if match.status == Match.Status.PAUSED and change.rules.is_over(change.state):
            match.status = Match.Status.ACTIVE  # the last player left wins: the pause ends with the match
        change.advance()
        change.save()
    return change.match


def pause_match(public_id: str, user, version: int | str | None) -> Match:
    """The host stops every clock; the remaining time is kept (docs/rules.md "Pauses")."""
    version = _parse_version(version)
    with transaction.atomic():
        match = _lock(public_id)
        if version != match.version:
            raise StaleVersion(match.version)
        if match.host_id is None or user is None or match.host_id != user.pk:
            raise NotAllowed("Only the host can pause this match.")
        if match.status != Match.Status.ACTIVE:
            raise NotAllowed("Only a live match can be paused.")
        if not ratelimits.hit(PAUSE_RATE, "pause", match.public_id, user.pk):
            raise NotAllowed("You have paused this match often lately; wait a few minutes.")
        change = _Change(match)
        now = timezone.now()
        match.paused_remaining = (
            max(0.0, (match.deadline - now).total_seconds()) if match.deadline else None
        )
        match.deadline = None
        match.computer_due_at = None  # resuming sends the computer's move again
        match.status = Match.Status.PAUSED
        change.after_commit.append(
            lambda m=match: _schedule_auto_resume(m.public_id, m.version)
        )
        change.save()
    return change.match


def resume_match(public_id: str, user, version: int | str | None, *, auto: bool = False) -> Match:
    """End a pause: each remaining time becomes a new deadline. ``auto``: the
    10-minute limit ended it (no user needed)."""
    version = _parse_version(version)
    with transaction.atomic():
        match = _lock(public_id)
        if version != match.version:
            raise StaleVersion(match.version)
        if not auto and (match.host_id is None or user is None or match.host_id != user.pk):
            raise NotAllowed("Only the host can resume this match.")
        if match.status != Match.Status.PAUSED:
            raise NotAllowed("This match is not paused.")
        change = _Change(match)
        match.status = Match.Status.ACTIVE
        remaining = match.paused_remaining
        match.paused_remaining = None
        change.advance(remaining=remaining)
        change.save()
    return change.match


def abort_match(public_id: str, reason: str = "aborted") -> Match:
    """End a live or paused match with no result (no rating change)."""
    with transaction.atomic():
        match = _lock(public_id)
        if match.status != Match.Status.PAUSED:
            _require_live(match)
        change = _Change(match)
        change.end(Match.Status.ABORTED, reason)
        change.save()
    return change.match


# -- internals -----------------------------------------------------------------


def _parse_version(version) -> int:
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


def _lock(public_id: str) -> Match:
    """The match row, locked (PostgreSQL) for this transaction; raises MatchNotFound."""
    rows = _LOCK.fetch(str(public_id)[:16])
    if not rows:
        raise MatchNotFound("There is no such match.")
    return rows[0]


def _user_seat(match: Match, user, seats=None) -> Seat:
    """``user``'s seat (from ``seats`` when already loaded); raises NotAllowed."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotAllowed("Log in to play.")
    if seats is not None:
        seat = next((s for s in seats if s.user_id == user.pk), None)
    else:
        seat = match.seats.filter(user_id=user.pk).select_related("user").first()
    if seat is None:
        raise NotAllowed("You have no seat in this match.")
    return seat


def _require_live(match: Match) -> None:
    if match.status == Match.Status.PAUSED:
        raise NotAllowed("The match is paused.")
    if match.status != Match.Status.ACTIVE:
        raise NotAllowed("The match is not being played.")


def _schedule_auto_resume(public_id: str, version: int) -> None:
    from games import tasks

    tasks.auto_resume.apply_async((public_id, version), countdown=settings.PARLOUR_PAUSE_MAX_SECONDS)


# What an action and its frames read of a seat and its user (a user row has
# many more columns; loading them was a good part of every move's cost).
_SEAT_FIELDS = (*(f.name for f in Seat._meta.concrete_fields), "user__username", "user__banned_until")
_SEATS = prepared.PreparedSelect(
    lambda match_id: Seat.objects.filter(match_id=match_id).select_related("user").only(*_SEAT_FIELDS), 1
)
#: The match columns an action may change (save() writes them all, guarded by the version).
_MATCH_CHANGES = ("status", "state", "version", "ply_count", "deadline", "deadline_task_at",
                  "computer_due_at", "paused_remaining", "host", "end_reason", "started_at",
                  "finished_at", "updated_at")


@dataclass
class _Change:
    """One accepted change to a locked match: plies applied to the engine
    state, the Move rows they make, seats touched, effects to send after commit."""

    match: Match
    rules: object = None
    state: object = None
    moves: list = field(default_factory=list)
    seats: dict = field(default_factory=dict)
    after_commit: list = field(default_factory=list)

    def __post_init__(self):
        self.rules = get_rules(self.match.kind)
        self.state = self.rules.load(self.match.state)
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
            raise BadMove(f"{move} is not a legal move now.")
        return move

    def apply(self, move, actor: str, seat: int | None, chance_index: int | None = None) -> None:
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

    def remove_seat(self, index: int, status: str) -> None:
        """The seat leaves (``leave N``); abort when no human remains."""
        seat = self.seat(index)
        seat.status = status
        if seat.user_id and seat.user_id == self.match.host_id:
            self._pass_host()
        if not self.rules.is_over(self.state) and self.rules.seat_status(self.state)[index] == "playing":
            self.apply(self.rules.leave_move(self.state, index), Move.Actor.SERVER, index)
        humans_left = any(
            s.user_id and s.status == Seat.Status.PLAYING for s in self.seats.values()
        )
        if not humans_left and self.match.status in (Match.Status.ACTIVE, Match.Status.PAUSED):
            self.end(Match.Status.ABORTED, "no_humans_left")

    def _pass_host(self) -> None:
        """The host role passes to the longest-seated human still playing
        (docs/rules.md "Pauses"); None when there is none."""
        stayers = [s for s in self.seats.values() if s.user_id and s.status == Seat.Status.PLAYING]
        stayers.sort(key=lambda s: (s.joined_at, s.index))
        self.match.host = stayers[0].user if stayers else None

    def advance(self, remaining: float | None = None) -> None:
        """Draw chance steps, play forced moves, then set up the next decision."""
        match = self.match
        if match.status != Match.Status.ACTIVE:
            return
        seed = bytes.fromhex(match.seed)
        rules = self.rules
        while True:
            to_move = rules.to_move(self.state)
            if to_move is None:
                outcome = rules.outcome(self.state)
                self.end(Match.Status.FINISHED, outcome.reason, outcome.ranks)
                return
            if to_move == CHANCE:
                k = rules.chance_count(self.state)
                self.apply(fair.fair_outcome(rules, self.state, seed, match.public_id),
                           Move.Actor.CHANCE, None, chance_index=k)
                continue
            forced = rules.forced_move(self.state)
            if forced is not None:
                self.apply(forced, Move.Actor.SERVER, to_move)
                continue
            break
        seat = self.seats[to_move]
        version = match.version + 1
        now = timezone.now()
        if seat.is_computer:
            match.deadline = None
            delay = _computer_delay(match)
            match.computer_due_at = now + timedelta(seconds=delay + settings.PARLOUR_COMPUTER_RETRY_SECONDS)
            self.after_commit.append(lambda: _schedule_computer(match, version))
        else:
            match.computer_due_at = None
            seconds = remaining if remaining is not None else match.turn_seconds
            match.deadline = now + timedelta(seconds=seconds)
            if not _deadline_covered(match, now):
                deadline = match.deadline
                match.deadline_task_at = deadline
                self.after_commit.append(lambda: _schedule_deadline(match.public_id, version, deadline))

    def end(self, status: str, reason: str, ranks=None) -> None:
        match = self.match
        match.status = status
        match.end_reason = reason
        match.deadline = None
        match.computer_due_at = None
        match.paused_remaining = None
        match.finished_at = timezone.now()
        if ranks is not None:
            for index, rank in enumerate(ranks):
                self.seat(index).rank = rank
        self.after_commit.clear()  # no deadline or computer move for an ended match
        if status == Match.Status.FINISHED and match.rated:
            from games.rating import rate_match

            # In this transaction: the result and the ratings commit together.
            rate_match(match, self.seats.values())

    def save(self) -> None:
        """Write it all, guarded by the version read; effects after commit."""
        match = self.match
        old = match.version
        match.version = old + 1
        match.ply_count += len(self.moves)
        match.state = self.rules.dump(self.state)
        match.updated_at = timezone.now()
        if prepared.update_row(match, _MATCH_CHANGES, "version", old) != 1:
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
        from games import push

        public_id, version = match.public_id, match.version
        # Controls change only for the seats that were or are to move, seats
        # that changed, and the host (pause); all of them when the status did.
        if match.status != self._status_before:
            controls = set(self.seats)
        else:
            controls = {self._to_move_before, self.to_move} | changed_seats
            controls |= {i for i, s in self.seats.items() if s.user_id and s.user_id == match.host_id}
        seats, moves, state = list(self.seats.values()), list(self.moves), self.state
        transaction.on_commit(lambda: push.match_changed(match, seats, moves, state, controls))
        for effect in self.after_commit:
            transaction.on_commit(effect)
        # Plies are counted, never written out: a notation may one day carry a
        # hidden tile (Rondo), and logs are no place for it.
        log.info("match %s now v%s, %s plies (+%s)", public_id, version, match.ply_count, len(self.moves))


def _computer_delay(match: Match) -> float:
    """Seconds a computer waits before it moves (README "Decisions")."""
    return settings.PARLOUR_COMPUTER_DELAYS.get(match.computer_speed, 1.0)


def _schedule_computer(match: Match, version: int) -> None:
    delay = _computer_delay(match)
    _send_computer_move(match.public_id, version, delay or None)


def _send_computer_move(public_id: str, version: int, countdown: float | None) -> None:
    from games import tasks

    tasks.computer_move.apply_async((public_id, version), countdown=countdown)


def _allowance() -> timedelta:
    """How long after its deadline a move may still arrive (README "Decisions")."""
    return timedelta(seconds=settings.PARLOUR_MOVE_ALLOWANCE_SECONDS)


def _too_late(match: Match) -> bool:
    """True when a move for ``match``'s current decision arrives now, after its
    deadline and the network allowance, and the site was up at that deadline
    (after an outage the turn is the player's again: ``expire_turn``)."""
    if match.deadline is None:
        return False
    now = timezone.now()
    return now > match.deadline + _allowance() and not uptime.was_down_at(match.deadline, now)


def _deadline_covered(match: Match, now) -> bool:
    """True when a pending expire_turn task runs after ``now`` and no later
    than ``match.deadline``: it will find the match moved on and hand over
    (``_hand_over_deadline``), so this change needs no task of its own."""
    pending = match.deadline_task_at
    return pending is not None and match.deadline is not None and now < pending <= match.deadline


def _hand_over_deadline(match: Match, again: bool = False) -> None:
    """A deadline task ran for a version the match moved past (or, with
    ``again``, before the deadline of its own version): schedule one for the
    current decision unless another pending task already covers it. Runs in
    the caller's transaction, with ``match`` locked (PostgreSQL) or guarded
    by its version (SQLite)."""
    now = timezone.now()
    if match.status != Match.Status.ACTIVE or match.deadline is None:
        return
    if not again and _deadline_covered(match, now):
        return
    deadline, version = match.deadline, match.version
    if Match.objects.filter(pk=match.pk, version=version).update(deadline_task_at=deadline):
        match.deadline_task_at = deadline
        transaction.on_commit(lambda: _schedule_deadline(match.public_id, version, deadline))


def _schedule_deadline(public_id: str, version: int, deadline) -> None:
    from games import tasks

    # At the deadline plus the allowance: a move that arrives within it still counts.
    tasks.expire_turn.apply_async((public_id, version), eta=deadline + _allowance())
