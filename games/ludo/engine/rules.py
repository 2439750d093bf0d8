"""Ludo rules: how a state changes with each move.

Source of truth: the rule text (rules 1-12) and docs/rules.md
"Common" and "Ludo". The player-facing rules page is
``games/ludo/templates/games/ludo/rules.html``.
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
from .board import (
    BASE,
    COLOUR_NAMES,
    HOME,
    PIECES_PER_SEAT,
    RING_LAST,
    RING_PROGRESS,
    SAFE_CELLS,
    SEAT_COLOURS,
)
from .moves import LEAVE, TIMEOUT, LudoMove, parse_move
from .state import LudoState, advance, initial, next_seat

CELL_OF = tuple(tuple((13 * c + p) % 52 for p in range(RING_LAST + 1)) for c in range(4))


class LudoRules(HidesNothing, Rules):
    """The Ludo engine (``get_rules("ludo")``). See ``Rules`` for the contract."""

    name = "ludo"
    #: HidesNothing: Ludo hides nothing (the Ludo rule text, "How a turn works"; docs/rules.md "Ludo").
    move_type = LudoMove
    player_counts = (2, 3, 4)
    default_options = {"autoplay_forced": True}
    #: Colour names by colour index; ``SEAT_COLOURS[players][seat]`` is a seat's
    #: colour index (docs/rules.md "Ludo": Seats).
    colour_names = COLOUR_NAMES
    seat_colours = SEAT_COLOURS

    # -- creating and reading states -------------------------------------
    def new_match(self, players: int, options: dict | None = None) -> LudoState:
        """A new match: all pieces in base; the first step is the chance step
        k=0 that draws the starting seat (N equal outcomes s0..s{N-1}; docs/rules.md
        "The start").

        ``players``: 2, 3 or 4. ``options``: ``{"autoplay_forced": bool}``
        (default True; docs/rules.md "Forced moves"). Raises ``InvalidOptionsError``
        for another player count, an unknown option or a non-bool value.
        """
        if type(players) is not int or players not in self.player_counts:
            raise InvalidOptionsError(f"Ludo is for 2, 3 or 4 players, not {players!r}")
        opts = dict(self.default_options)
        for key, value in (options or {}).items():
            if key not in opts:
                raise InvalidOptionsError(f"unknown Ludo option {key!r}; known options: autoplay_forced")
            if not isinstance(value, bool):
                raise InvalidOptionsError(f"Ludo option {key!r} must be true or false, not {value!r}")
            opts[key] = value
        return initial(players, opts["autoplay_forced"])

    def to_move(self, state: LudoState) -> int | None:
        """The seat to decide (it always has a legal move), ``CHANCE`` at a
        chance step (starting seat or die), or None once the match is over."""
        return state.actor

    def legal_moves(self, state: LudoState) -> list[LudoMove]:
        """``[roll]`` at a roll; the piece moves (``p0``..``p3``, piece order)
        after a die; the outcomes at a chance step; ``[]`` when over. Server
        events (timeout, leave) are never listed."""
        return list(state.legal)

    def chance_outcomes(self, state: LudoState) -> list[tuple[LudoMove, int]]:
        """The chance step's outcomes with weights, in fixed order: the die
        ``d1``..``d6`` (weight 1 each), or the starting seat ``s0``..``s{N-1}``
        (weight 1 each). Raises ``IllegalMoveError`` when it is not a chance step.
        """
        if state.actor != CHANCE:
            raise IllegalMoveError("chance_outcomes: the next step is not a chance step")
        return [(m, 1) for m in state.legal]

    def chance_count(self, state: LudoState) -> int:
        """k of the next chance step: chance steps met so far (docs/rules.md "Provably
        fair randomness"; the starting seat is k=0)."""
        return state.chance_count

    def parse_move(self, text: str) -> LudoMove:
        """See ``games.ludo.engine.moves.parse_move``."""
        return parse_move(text)

    def outcome(self, state: LudoState) -> Outcome | None:
        """Ranks when over (docs/rules.md "Result and ranking", "Leaving"): the winner
        1, every other seat that stayed 2, leavers below them, the earlier
        leaver lower. Reason "finished" or "last_player_standing"."""
        if state.phase != "over":
            return None
        return Outcome(leaver_ranks(state.players, (state.winner,), state.left), state.reason)

    # -- playing -------------------------------------------------------------
    def play(self, state: LudoState, move: LudoMove | str) -> LudoState:
        """The state after one ply: ``move`` (a ``LudoMove`` or its notation)
        played in ``state``, which is left unchanged.

        Raises ``InvalidMoveError`` when the move does not parse and
        ``IllegalMoveError`` when the rules forbid it here (the message names
        the move and the reason).
        """
        if move.__class__ is str:
            move = parse_move(move)
        elif move.__class__ is not LudoMove:
            raise InvalidMoveError(f"{move!r} is not a Ludo move")
        if move in state.legal:
            phase = state.phase
            if phase == "die":
                return self._rolled(state, move.value)
            if phase == "move":
                return self._move_piece(state, move.value)
            if phase == "roll":
                return advance(state, "die", state.turn, state.die, state.sixes)
            return self._started(state, move.value)
        if move.kind == "leave":
            return self._leave(state, move.value)
        if move.kind == "timeout":
            return self._timeout(state)
        raise IllegalMoveError(f"{move} is not legal here: {self._why_illegal(state, move)}")

    def _why_illegal(self, state: LudoState, move: LudoMove) -> str:
        phase = state.phase
        if phase == "over":
            return "the match is over"
        if phase in ("start", "die"):
            wanted = "the starting seat" if phase == "start" else "the die"
            outcomes = " ".join(map(str, state.legal))
            return f"the next step is a chance step ({wanted}), its outcomes are {outcomes}"
        if phase == "roll":
            return f"seat {state.turn} must roll"
        if move.kind == "piece":
            p = state.pieces[PIECES_PER_SEAT * state.turn + move.value]
            if p == BASE:
                return (
                    f"piece {move.value} is in base and needs a 6 to enter (rule 2), the die is {state.die}"
                )
            if p == HOME:
                return f"piece {move.value} is already home"
            return f"piece {move.value} at progress {p} would pass home with {state.die} (rule 4: exact roll)"
        return f"seat {state.turn} must move a piece ({' '.join(map(str, state.legal))})"

    def _started(self, state: LudoState, seat: int) -> LudoState:
        # docs/rules.md "Seats and colours": if the drawn seat has left, the next remaining seat starts.
        if seat in state.left:
            seat = next_seat(seat, state.players, state.left)
        return advance(state, "roll", seat, 0, 0, k=state.chance_count + 1)

    def _rolled(self, state: LudoState, die: int) -> LudoState:
        """Rules 8 and 10: a third six forfeits the roll; no move passes the
        turn, except after a six, which rolls again."""
        k = state.chance_count + 1
        seat = state.turn
        sixes = state.sixes + 1 if die == 6 else 0
        if sixes == 3:
            return advance(state, "roll", next_seat(seat, state.players, state.left), die, 0, k=k)
        nxt = advance(state, "move", seat, die, sixes, k=k)
        if nxt.legal:
            return nxt
        if die == 6:
            return advance(state, "roll", seat, die, sixes, k=k)
        return advance(state, "roll", next_seat(seat, state.players, state.left), die, 0, k=k)

    def _move_piece(self, state: LudoState, piece: int) -> LudoState:
        """Rules 2-9: enter on a 6, exact roll home, capture on unsafe ring
        cells (every piece of that opponent there), a 6 rolls again, no bonus."""
        players = state.players
        seat = state.turn
        die = state.die
        colours = SEAT_COLOURS[players]
        pieces = list(state.pieces)
        index = PIECES_PER_SEAT * seat + piece
        p = pieces[index]
        to = 0 if p == BASE else p + die
        pieces[index] = to
        if to <= RING_LAST:
            cell = CELL_OF[colours[seat]][to]
            if cell not in SAFE_CELLS:
                for other in range(players):
                    q = RING_PROGRESS[colours[other]][cell]
                    if other == seat or q is None:
                        continue
                    b = PIECES_PER_SEAT * other
                    for j in range(b, b + PIECES_PER_SEAT):
                        if pieces[j] == q:
                            pieces[j] = BASE
        elif to == HOME:
            b = PIECES_PER_SEAT * seat
            if pieces[b] == pieces[b + 1] == pieces[b + 2] == pieces[b + 3] == HOME:
                return advance(state, "over", -1, die, 0, tuple(pieces), winner=seat, reason="finished")
        if die == 6:
            return advance(state, "roll", seat, die, state.sixes, tuple(pieces))
        return advance(state, "roll", next_seat(seat, players, state.left), die, 0, tuple(pieces))

    def _timeout(self, state: LudoState) -> LudoState:
        """Rule 12: a missed roll or piece choice ends the turn; earlier moves stay."""
        if state.phase not in ("roll", "move"):
            raise IllegalMoveError(f"timeout is not possible here: {self._no_seat(state)}")
        return advance(state, "roll", next_seat(state.turn, state.players, state.left), state.die, 0)

    def _leave(self, state: LudoState, seat: int) -> LudoState:
        """docs/rules.md "Leaving": the leaver's pieces leave the board; if it was that
        seat's turn, the turn passes on; when one seat remains, it wins."""
        if state.phase == "over":
            raise IllegalMoveError(f"leave {seat} is not possible: the match is over")
        if seat >= state.players:
            raise IllegalMoveError(
                f"leave {seat} is not possible: the match has seats 0..{state.players - 1}"
            )
        if seat in state.left:
            raise IllegalMoveError(f"leave {seat} is not possible: seat {seat} has already left")
        players = state.players
        left = state.left + (seat,)
        pieces = list(state.pieces)
        pieces[PIECES_PER_SEAT * seat : PIECES_PER_SEAT * (seat + 1)] = [BASE] * PIECES_PER_SEAT
        pieces = tuple(pieces)
        remaining = [s for s in range(players) if s not in left]
        if len(remaining) == 1:
            return advance(state, "over", -1, state.die, 0, pieces, left, winner=remaining[0],
                           reason="last_player_standing")  # fmt: skip
        if state.phase == "start":
            return advance(state, "start", -1, 0, 0, pieces, left)
        if seat == state.turn:
            return advance(state, "roll", next_seat(seat, players, left), state.die, 0, pieces, left)
        return advance(state, state.phase, state.turn, state.die, state.sixes, pieces, left)

    @staticmethod
    def _no_seat(state: LudoState) -> str:
        if state.phase == "over":
            return "the match is over"
        return "the next step is a chance step, not a seat's decision"

    # -- the server's events ---------------------------------------------
    def timeout_move(self, state: LudoState) -> LudoMove:
        """``timeout`` for the seat to move, before rolling or after (rule 12).
        Raises ``IllegalMoveError`` at a chance step or when over."""
        if state.phase not in ("roll", "move"):
            raise IllegalMoveError(f"timeout is not possible here: {self._no_seat(state)}")
        return TIMEOUT

    def leave_move(self, state: LudoState, seat: int) -> LudoMove:
        """``leave N`` for any seat still playing, at any time (docs/rules.md
        "Leaving"). Raises ``IllegalMoveError`` for a seat out of range, a
        seat that has left, or a match that is over."""
        if type(seat) is not int or not 0 <= seat < state.players:
            raise IllegalMoveError(f"leave {seat}: the match has seats 0..{state.players - 1}")
        if state.phase == "over":
            raise IllegalMoveError(f"leave {seat} is not possible: the match is over")
        if seat in state.left:
            raise IllegalMoveError(f"leave {seat} is not possible: seat {seat} has already left")
        return LEAVE[seat]

    def forced_move(self, state: LudoState) -> LudoMove | None:
        """The only piece move, when the option ``autoplay_forced`` is on and
        every legal move leads to the same position (pieces of one seat at the
        same progress are interchangeable): the lowest-numbered such piece.
        None otherwise, and never for ``roll`` (docs/rules.md "Forced moves")."""
        if not state.autoplay_forced or state.phase != "move":
            return None
        legal = state.legal
        if len(legal) == 1:
            return legal[0]
        base = PIECES_PER_SEAT * state.turn
        if len({state.pieces[base + m.value] for m in legal}) == 1:
            return legal[0]
        return None

    def seat_status(self, state: LudoState) -> list[str]:
        """Per seat: "playing", "left", or "done" (stayed to the end)."""
        live = "done" if state.phase == "over" else "playing"
        return ["left" if s in state.left else live for s in range(state.players)]

    # -- views and persistence ---------------------------------------------
    def view(self, state: LudoState, seat: int | None) -> dict:
        """The JSON-safe view for ``seat`` (None: spectator); see
        ``games.ludo.engine.view.view`` for its shape. Nothing is hidden in
        Ludo. Raises ``ValueError`` for a seat out of range."""
        return _view.view(self, state, seat)

    def sample_state(self, view: dict, seat: int | None, rng=None) -> LudoState:
        """The exact state behind ``view`` (Ludo hides nothing; ``rng`` unused).
        Raises ``InvalidStateError`` for a malformed view."""
        return _view.from_view(view)

    def dump(self, state: LudoState) -> dict:
        """JSON-safe dict; see ``games.ludo.engine.view.dump``."""
        return _view.dump(state)

    def load(self, data: dict) -> LudoState:
        """The state ``dump`` wrote. Raises ``InvalidStateError``."""
        return _view.load(data)

