"""Roundabout rules: how a state changes with each move.

Source of truth: the rule text and docs/rules.md
"Common" and "Roundabout". The player-facing rules page is
``games/roundabout/templates/games/roundabout/rules.html``.

A turn: the seat rolls (``roll``), the two dice are one chance step, then the
mover plays one die per ply (``3r5``), or turns darts on reversing doubles
(``rev 3``), or, with 3-4 players, offers the roll (``offer 2 1``) to
opponents who ``accept`` or ``decline`` in turn. Captures are evaluated when
the turn is complete; then the next seat rolls.
"""

from __future__ import annotations

from games.engine.base import (
    CHANCE,
    HidesNothing,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionsError,
    Outcome,
    Rules,
    leaver_ranks,
)

from . import view as _view
from .board import COLOUR_NAMES, REMOVED, SEAT_TERRITORIES, TURN_LIMIT, darts_per_seat, initial_darts
from .moves import DECLINE, DICE, LEAVE, ROLLOFF, TIMEOUT, RoundaboutMove, canonical, parse_move
from .state import (
    RoundaboutState,
    apply_dart,
    captures,
    make,
    next_seat,
    restricted,
)

#: Why a match ended beyond the shared reasons (docs/rules.md "Every match
#: ends"): "stalled" (as many turns in a row as there are seats still playing,
#: counted from any seat, without a dart changing space; turning is not
#: moving), "turn_limit" (every remaining seat has had ``TURN_LIMIT`` turns).
STALL_REASONS = ("stalled", "turn_limit")


_DICE_OUTCOMES = tuple((m, 1) for m in DICE)
_ROLLOFF_OUTCOMES = tuple((m, 1) for m in ROLLOFF[1:])
_FIELD = {name: i for i, name in enumerate(RoundaboutState._fields)}
_new = tuple.__new__


def _with(st: RoundaboutState, **changes) -> RoundaboutState:
    """``st`` with some fields changed (``actor`` and ``legal`` not re-derived)."""
    vals = list(st)
    for key, value in changes.items():
        vals[_FIELD[key]] = value
    return _new(RoundaboutState, vals)


def _remake(st: RoundaboutState, **changes) -> RoundaboutState:
    """``st`` with some fields changed, ``actor`` and ``legal`` re-derived."""
    vals = list(st)
    for key, value in changes.items():
        vals[_FIELD[key]] = value
    return make(*vals[:26])


class RoundaboutRules(HidesNothing, Rules):
    """The Roundabout engine (``get_rules("roundabout")``). See ``Rules`` for
    the contract."""

    name = "roundabout"
    #: HidesNothing: Roundabout hides nothing (the Roundabout rulebook, "The Equipment",
    #: "Set Up", "Basic Rules"; docs/rules.md "Roundabout").
    move_type = RoundaboutMove
    player_counts = (2, 3, 4)
    default_options: dict = {}
    #: Colour names by territory; ``seat_territories[players][seat]`` is a
    #: seat's territory and colour index (docs/rules.md "Territories by seat").
    colour_names = COLOUR_NAMES
    seat_territories = SEAT_TERRITORIES

    # -- creating and reading states -------------------------------------
    def new_match(self, players: int, options: dict | None = None) -> RoundaboutState:
        """A new match in the set-up for ``players`` (2, 3 or 4; board.SETUPS);
        the first steps are the roll-off, one chance step per die (docs/rules.md "The
        start"). Roundabout has no options. Raises ``InvalidOptionsError``
        for another player count or any option."""
        if type(players) is not int or players not in self.player_counts:
            raise InvalidOptionsError(f"Roundabout is for 2, 3 or 4 players, not {players!r}")
        if options:
            raise InvalidOptionsError(f"Roundabout has no options, got {sorted(options)!r}")
        pos, face = initial_darts(players)
        none = (False,) * len(pos)
        return make(
            players, "rolloff", -1, -1, (), (), (), False, (), pos, face, none, none, (), (), False,
            tuple(range(players)), (), (0,) * players, 0, (), -1, "", 0,
        )  # fmt: skip

    def to_move(self, state: RoundaboutState) -> int | None:
        """The seat to decide (it always has a legal move), ``CHANCE`` at a
        chance step (a roll-off die or the two dice), or None once over."""
        return state.actor

    def legal_moves(self, state: RoundaboutState) -> list[RoundaboutMove]:
        """The choices of the seat to move (see ``state.move_choices`` for the
        "move" phase), the outcomes at a chance step, ``[]`` when over. Server
        events (timeout, leave) are never listed."""
        return list(state.legal)

    def chance_outcomes(self, state: RoundaboutState) -> list[tuple[RoundaboutMove, int]]:
        """The chance step's outcomes, weight 1 each, in fixed order: a
        roll-off die ``d1``..``d6``, or the two dice ``d1-1``, ``d1-2``, ..
        ``d6-6`` (index i is (i // 6 + 1, i % 6 + 1), first die major: docs/rules.md
        "Provably fair randomness"). Raises ``IllegalMoveError`` otherwise."""
        if state.actor != CHANCE:
            raise IllegalMoveError("chance_outcomes: the next step is not a chance step")
        return list(_DICE_OUTCOMES if state.phase == "dice" else _ROLLOFF_OUTCOMES)

    def chance_count(self, state: RoundaboutState) -> int:
        """k of the next chance step (the roll-off dice are k = 0, 1, ...)."""
        return state.chance_count

    def parse_move(self, text: str) -> RoundaboutMove:
        """See ``games.roundabout.engine.moves.parse_move``."""
        return parse_move(text)

    def outcome(self, state: RoundaboutState) -> Outcome | None:
        """Ranks when over. "finished" / "last_player_standing": the winner 1,
        the others who stayed 2 (docs/rules.md "Result and ranking"); "stalled" /
        "turn_limit": by darts still on the board, fewer first, ties share
        (docs/rules.md "Every match ends"). Leavers rank below, the earlier lower."""
        if state.phase != "over":
            return None
        if state.reason in STALL_REASONS:
            n = darts_per_seat(state.players)
            stayed = [s for s in range(state.players) if s not in state.left]
            count = {s: sum(1 for p in state.pos[s * n : (s + 1) * n] if p >= 0) for s in stayed}
            ranks = [0] * state.players
            for s in stayed:
                ranks[s] = 1 + sum(1 for o in stayed if count[o] < count[s])
            ahead = len(stayed)
            for s in reversed(state.left):
                ranks[s] = ahead + 1
                ahead += 1
            return Outcome(tuple(ranks), state.reason)
        return Outcome(leaver_ranks(state.players, (state.winner,), state.left), state.reason)

    # -- playing -------------------------------------------------------------
    def play(self, state: RoundaboutState, move: RoundaboutMove | str) -> RoundaboutState:
        """The state after one ply: ``move`` (a ``RoundaboutMove`` or its
        notation) played in ``state``, which is left unchanged.

        Raises ``InvalidMoveError`` when the move does not parse and
        ``IllegalMoveError`` when the rules forbid it here.
        """
        if move.__class__ is str:
            move = parse_move(move)
        elif move.__class__ is not RoundaboutMove:
            raise InvalidMoveError(f"{move!r} is not a Roundabout move")
        elif move not in state.legal:
            move = canonical(move)  # an equal copy of an interned move
        if move in state.legal:
            kind = move.kind
            if kind == "dart":
                return self._dart(state, move)
            if kind == "dice":
                return self._rolled(state, move.die, move.second)
            if kind == "roll":
                return _remake(state, phase="dice")
            if kind == "pass":
                return self._end_turn(state)
            if kind == "reverse":
                return self._reverse(state, move.dart)
            if kind == "offer":
                return _remake(state, phase="offer", offers=move.seats, offered=True, mover=-1)
            if kind == "accept":
                return self._to_move(_with(state, mover=state.offers[0], offers=()))
            if kind == "decline":
                return self._declined(state)
            return self._rolloff(state, move.die)
        if move.kind == "leave":
            return self._leave(state, move.seats[0])
        if move.kind == "timeout":
            return self._timeout(state)
        raise IllegalMoveError(f"{move} is not legal here: {self._why_illegal(state, move)}")

    def _why_illegal(self, state: RoundaboutState, move: RoundaboutMove) -> str:
        phase = state.phase
        if phase == "over":
            return "the match is over"
        if state.actor == CHANCE:
            what = "a roll-off die" if phase == "rolloff" else "the two dice"
            return f"the next step is a chance step ({what})"
        if phase == "roll":
            return f"seat {state.turn} must roll"
        if phase == "offer":
            return f"seat {state.offers[0]} must accept or decline the offered roll"
        if move.kind == "dart":
            n = darts_per_seat(state.players)
            if move.dart >= n:
                return f"a seat has darts 0..{n - 1}"
            idx = state.mover * n + move.dart
            if state.pos[idx] < 0:
                return f"dart {move.dart} has left the board"
            if state.captured[idx]:
                return f"dart {move.dart} is captured and cannot move"
            if move.die not in state.unused:
                return f"no unused die shows {move.die} (unused: {list(state.unused)})"
            return (
                "the path leaves the board, ends on an occupied space, passes over another seat's block"
                " without jumping doubles, or would end the turn beside a captured dart of its own"
            )
        legal = " ".join(map(str, state.legal))
        return f"seat {state.mover} may play: {legal}"

    def _rolloff(self, state: RoundaboutState, value: int) -> RoundaboutState:
        return self._resolve_rolloff(
            _with(state, rolls=state.rolls + (value,), chance_count=state.chance_count + 1)
        )

    def _resolve_rolloff(self, state: RoundaboutState) -> RoundaboutState:
        """docs/rules.md "The start": when every seat of the round has rolled, the
        highest starts; tied seats roll again, in seat order."""
        seats, rolls = state.rolloff, state.rolls
        if len(seats) == 1:
            return self._start_turn(_with(state, rolloff=(), rolls=()), seats[0])
        if len(rolls) < len(seats):
            return _remake(state)
        top = max(rolls)
        tied = tuple(s for s, r in zip(seats, rolls, strict=True) if r == top)
        if len(tied) == 1:
            return self._start_turn(_with(state, rolloff=(), rolls=()), tied[0])
        return _remake(state, rolloff=tied, rolls=())

    def _start_turn(self, state: RoundaboutState, seat: int) -> RoundaboutState:
        """``seat`` rolls next, unless all its darts are captured: then its
        turn passes (docs/rules.md "Captures"); a stalled or long match ends here."""
        players, left = state.players, state.left
        n = darts_per_seat(players)
        turns, idle = list(state.turns), state.idle
        remaining = [s for s in range(players) if s not in left]
        for _ in range(players * (TURN_LIMIT + 2)):
            reason = ""
            if idle >= len(remaining):
                reason = "stalled"
            elif min(turns[s] for s in remaining) >= TURN_LIMIT:
                reason = "turn_limit"
            if reason:
                return _remake(
                    state, phase="over", turn=-1, mover=-1, dice=(), unused=(), reversed=(), offers=(),
                    back=(), back_circuit=(), turns=tuple(turns), idle=idle, reason=reason,
                )  # fmt: skip
            darts = [i for i in range(seat * n, seat * n + n) if state.pos[i] >= 0]
            if darts and all(state.captured[i] for i in darts):
                turns[seat] += 1
                idle += 1
                seat = next_seat(seat, players, left)
                continue
            break
        return _remake(
            state, phase="roll", turn=seat, mover=-1, dice=(), unused=(), reversed=(), offered=False,
            offers=(), back=(), back_circuit=(), moved=False, turns=tuple(turns), idle=idle,
        )  # fmt: skip

    def _to_move(self, state: RoundaboutState) -> RoundaboutState:
        """Enter (or stay in) the "move" phase; a mover with no choice at all
        ends the turn (docs/rules.md "No stuck seat")."""
        nxt = _remake(state, phase="move")
        if nxt.legal:
            return nxt
        return self._end_turn(nxt)

    def _rolled(self, state: RoundaboutState, a: int, b: int) -> RoundaboutState:
        return self._to_move(
            _with(state, dice=(a, b), unused=(a, b), mover=state.turn, chance_count=state.chance_count + 1)
        )

    def _declined(self, state: RoundaboutState) -> RoundaboutState:
        """The next named opponent answers; when all declined the roller must
        play the roll (docs/rules.md "Golden Rule")."""
        rest = state.offers[1:]
        if rest:
            return _remake(state, offers=rest)
        return self._to_move(_with(state, offers=(), mover=state.turn))

    def _dart(self, state: RoundaboutState, move: RoundaboutMove) -> RoundaboutState:
        players, mover = state.players, state.mover
        n = darts_per_seat(players)
        pos, circuit = apply_dart(players, n, state.pos, state.circuit, mover, move, state.face)
        unused = list(state.unused)
        unused.remove(move.die)
        captured = state.captured
        idx = mover * n + move.dart
        removed = pos[idx] < 0
        if removed and True in captured:  # a ringer frees captured darts (they leave the board)
            captured = tuple(c and p >= 0 for c, p in zip(captured, pos, strict=True))
        back, back_circuit = (state.pos, state.circuit) if len(state.unused) == 2 else ((), ())
        nxt = _with(
            state,
            pos=pos, circuit=circuit, captured=captured, unused=tuple(unused), moved=True,
            back=back, back_circuit=back_circuit,
        )  # fmt: skip
        if removed and all(p < 0 for p in pos[mover * n : mover * n + n]):
            return _remake(
                nxt, phase="over", turn=-1, mover=-1, dice=(), unused=(), offers=(), back=(), back_circuit=(),
                winner=mover, reason="finished",
            )  # fmt: skip
        if not unused:
            return self._end_turn(nxt)
        return self._to_move(nxt)

    def _reverse(self, state: RoundaboutState, dart: int) -> RoundaboutState:
        n = darts_per_seat(state.players)
        idx = state.mover * n + dart
        face = list(state.face)
        face[idx] = -face[idx]
        # Turning is not moving (docs/rules.md "Every match ends"), except under
        # the rule older matches began with.
        moved = state.moved or state.turning_moves
        return self._to_move(_with(state, face=tuple(face), reversed=state.reversed + (dart,), moved=moved))

    def _end_turn(self, state: RoundaboutState) -> RoundaboutState:
        """The turn is complete: captures are evaluated on this position, the
        turn is counted, and the seat after the roller rolls next."""
        players = state.players
        n = darts_per_seat(players)
        turns = list(state.turns)
        turns[state.turn] += 1
        done = _with(
            state,
            captured=captures(state.pos, n, players),
            turns=tuple(turns),
            idle=0 if state.moved else state.idle + 1,
        )
        return self._start_turn(done, next_seat(state.turn, players, state.left))

    def _timeout(self, state: RoundaboutState) -> RoundaboutState:
        """docs/rules.md "Turn timer": a missed roll or decision ends the turn; moves
        already made stay, except a first-die move the turn may not end with
        (beside a captured dart of the mover's own), which is taken back. An
        offered seat's timeout is a decline."""
        phase = state.phase
        if phase == "offer":
            return self._declined(state)
        if phase == "roll":
            return self._end_turn(state)
        if phase != "move":
            raise IllegalMoveError(f"timeout is not possible here: {self._no_seat(state)}")
        n = darts_per_seat(state.players)
        if state.back and restricted(state.pos, state.captured, n, state.mover):
            state = _with(state, pos=state.back, circuit=state.back_circuit,
                          moved=bool(state.reversed) and state.turning_moves)
        return self._end_turn(state)

    def _leave(self, state: RoundaboutState, seat: int) -> RoundaboutState:
        """docs/rules.md "Leaving": the leaver's darts leave the board; a turn it was
        playing or rolling ends; an offer to it counts as declined; when one
        seat remains, it wins."""
        if state.phase == "over":
            raise IllegalMoveError(f"leave {seat} is not possible: the match is over")
        if seat >= state.players:
            raise IllegalMoveError(
                f"leave {seat} is not possible: the match has seats 0..{state.players - 1}"
            )
        if seat in state.left:
            raise IllegalMoveError(f"leave {seat} is not possible: seat {seat} has already left")
        players = state.players
        n = darts_per_seat(players)
        left = state.left + (seat,)
        pos = list(state.pos)
        pos[seat * n : seat * n + n] = [REMOVED] * n
        pos = tuple(pos)
        now = captures(pos, n, players)
        captured = tuple(a and b for a, b in zip(state.captured, now, strict=True))
        back = state.back
        if back:
            back = list(back)
            back[seat * n : seat * n + n] = [REMOVED] * n
            back = tuple(back)
        st = _with(state, left=left, pos=pos, captured=captured, back=back)
        remaining = [s for s in range(players) if s not in left]
        if len(remaining) == 1:
            return _remake(
                st, phase="over", turn=-1, mover=-1, dice=(), unused=(), offers=(), back=(), back_circuit=(),
                winner=remaining[0], reason="last_player_standing",
            )  # fmt: skip
        phase = state.phase
        if phase == "rolloff":
            if seat in st.rolloff:
                i = st.rolloff.index(seat)
                rolls = st.rolls[:i] + st.rolls[i + 1 :] if i < len(st.rolls) else st.rolls
                st = _with(st, rolloff=st.rolloff[:i] + st.rolloff[i + 1 :], rolls=rolls)
            return self._resolve_rolloff(st)
        if seat == state.turn or seat == state.mover:
            return self._end_turn(st)
        if phase == "offer" and seat in state.offers:
            if seat == state.offers[0]:
                return self._declined(st)
            return _remake(st, offers=tuple(s for s in state.offers if s != seat))
        if phase == "move":
            return self._to_move(st)
        return _remake(st)

    @staticmethod
    def _no_seat(state: RoundaboutState) -> str:
        if state.phase == "over":
            return "the match is over"
        return "the next step is a chance step, not a seat's decision"

    # -- the server's events ---------------------------------------------
    def timeout_move(self, state: RoundaboutState) -> RoundaboutMove:
        """The move the server plays when the seat to move runs out of time
        (docs/rules.md "Turn timer"): ``decline`` for a seat offered a Golden Rule
        roll (a decline, not a missed turn), else ``timeout`` (the rest of
        the turn is missed). Raises ``IllegalMoveError`` at a chance step or
        when over."""
        if state.phase == "offer":
            return DECLINE
        if state.phase not in ("roll", "move"):
            raise IllegalMoveError(f"timeout is not possible here: {self._no_seat(state)}")
        return TIMEOUT

    def leave_move(self, state: RoundaboutState, seat: int) -> RoundaboutMove:
        """``leave N`` for any seat still playing, at any time (docs/rules.md
        "Leaving"). Raises ``IllegalMoveError`` otherwise."""
        if type(seat) is not int or not 0 <= seat < state.players:
            raise IllegalMoveError(f"leave {seat}: the match has seats 0..{state.players - 1}")
        if state.phase == "over":
            raise IllegalMoveError(f"leave {seat} is not possible: the match is over")
        if seat in state.left:
            raise IllegalMoveError(f"leave {seat} is not possible: seat {seat} has already left")
        return LEAVE[seat]

    def forced_move(self, state: RoundaboutState) -> RoundaboutMove | None:
        """Always None: Roundabout plays nothing automatically for a seat
        (a seat with no choice at all is passed over by the engine itself)."""
        return None

    def seat_status(self, state: RoundaboutState) -> list[str]:
        """Per seat: "playing", "left", or "done" (stayed to the end)."""
        live = "done" if state.phase == "over" else "playing"
        return ["left" if s in state.left else live for s in range(state.players)]

    # -- views and persistence ---------------------------------------------
    def view(self, state: RoundaboutState, seat: int | None) -> dict:
        """The JSON-safe view for ``seat`` (None: spectator); see
        ``games.roundabout.engine.view.view``. Nothing is hidden."""
        return _view.view(self, state, seat)

    def sample_state(self, view: dict, seat: int | None, rng=None) -> RoundaboutState:
        """The exact state behind ``view`` (nothing is hidden; ``rng`` unused).
        Raises ``InvalidStateError`` for a malformed view."""
        return _view.from_view(view)

    def dump(self, state: RoundaboutState) -> dict:
        """JSON-safe dict; see ``games.roundabout.engine.view.dump``."""
        return _view.dump(state)

    def load(self, data: dict) -> RoundaboutState:
        """The state ``dump`` wrote. Raises ``InvalidStateError``."""
        return _view.load(data)

