"""Rondo rules: how a state changes with each ply.

Source of truth: the rule text and docs/rules.md "Common" and
"Rondo". The player-facing rules page is ``games/rondo/templates/games/rondo/rules.html``.
"""

from __future__ import annotations

from games.engine.base import (
    CHANCE,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionsError,
    Outcome,
    Rules,
)

from . import view as _view
from .board import board_data, get_board
from .moves import COLOURS, DRAW, END, LEAVE, MAX_RACK, START, TILE, TIMEOUT, RondoMove, parse_move
from .state import TILES_PER_COLOUR, RondoState, down_code, down_colour, frontier_of

OPENING_TILES = 2
#: Seat colours (the score markers), by seat.
SEAT_COLOURS = ("red", "green", "yellow", "blue")


def next_seat(seat: int, players: int, left: tuple[int, ...]) -> int:
    """The next seat after ``seat`` in turn order that has not left."""
    s = (seat + 1) % players
    while s in left:
        s = (s + 1) % players
    return s


def round_start(state: RondoState) -> int:
    """The seat a round starts at: the starting seat, or the next remaining
    seat after it if it has left (docs/rules.md "Seats and colours")."""
    if state.starter not in state.left:
        return state.starter
    return next_seat(state.starter, state.players, state.left)


class RondoRules(Rules):
    """The Rondo engine (``get_rules("rondo")``). See ``Rules`` for the contract.

    ``board_data``: a board in the ``rondo-board.json`` shape (default: the
    project's board); tests pass small boards of their own.
    """

    name = "rondo"
    player_counts = (2, 3, 4)
    default_options = {"side": "blue", "one_change": True}
    colour_names = COLOURS
    seat_colours = SEAT_COLOURS

    def __init__(self, board_data_: dict | None = None):
        self.board_data = board_data() if board_data_ is None else board_data_
        sides = list(self.board_data.get("sides", {}))
        if not sides:
            raise InvalidOptionsError("a Rondo board needs at least one side")
        if "blue" not in sides:
            self.default_options = {"side": sides[0], "one_change": True}

    def board(self, side: str):
        """The ``Board`` of ``side``. Raises ``InvalidOptionsError``."""
        return get_board(self.board_data, side)

    # -- creating and reading states -------------------------------------
    def new_match(self, players: int, options: dict | None = None) -> RondoState:
        """A new match: 120 tiles in the bag, empty racks and board; the first
        step is the chance step k=0 that draws the starting seat (N equal
        outcomes s0..s{N-1}), then the deal (docs/rules.md "The start").

        ``players``: 2, 3 or 4. ``options``: ``{"side": "blue" | "red",
        "one_change": bool}`` (defaults blue and True; docs/rules.md "Rondo": Board,
        Placing). Raises ``InvalidOptionsError`` for another player count, an
        unknown option or a bad value.
        """
        if type(players) is not int or players not in self.player_counts:
            raise InvalidOptionsError(f"Rondo is for 2, 3 or 4 players, not {players!r}")
        opts = dict(self.default_options)
        for key, value in (options or {}).items():
            if key not in opts:
                raise InvalidOptionsError(f"unknown Rondo option {key!r}; known options: side, one_change")
            if key == "one_change" and not isinstance(value, bool):
                raise InvalidOptionsError(f"Rondo option 'one_change' must be true or false, not {value!r}")
            if key == "side" and not isinstance(value, str):
                raise InvalidOptionsError(f"Rondo option 'side' must be a side's name, not {value!r}")
            opts[key] = value
        board = self.board(opts["side"])
        return RondoState(
            board,
            players,
            "start",
            -1,
            -1,
            0,
            (TILES_PER_COLOUR,) * 5,
            ((0,) * 5,) * players,
            (0,) * board.size,
            (0,) * players,
            (),
            0,
            False,
            False,
            (),
            "",
            0,
            opts["one_change"],
        )

    def to_move(self, state: RondoState) -> int | None:
        """The seat to decide (it always has a legal move), ``CHANCE`` at a
        chance step (starting seat or a tile draw), or None once over."""
        phase = state.phase
        if phase == "turn":
            return state.turn
        if phase == "over":
            return None
        return CHANCE

    def legal_moves(self, state: RondoState) -> list[RondoMove]:
        """In a turn: with no placement yet, ``draw`` (unless the rack holds 5)
        and every placement on a space of the frontier; after a placement,
        ``end`` and every placement that continues the chain. Placements are
        listed by space (board order), face up 1..n, then face down by colour.
        At a chance step its outcomes; ``[]`` when over. Server events
        (timeout, leave) are never listed."""
        legal = state._legal
        if legal is None:
            legal = state._legal = self._legal(state)
        return list(legal)

    def _legal(self, s: RondoState) -> tuple:
        phase = s.phase
        if phase == "turn":
            return self._turn_moves(s)
        if phase == "start":
            return START[: s.players]
        if phase == "over":
            return ()
        bag = s.bag
        return tuple(TILE[c] for c in range(5) if bag[c])

    @staticmethod
    def _candidates(s: RondoState) -> list[int]:
        """Spaces the next placement of this turn may go on."""
        b = s.board
        if not s.chain:
            out = []
            m = s.frontier
            while m:
                low = m & -m
                out.append(low.bit_length() - 1)
                m ^= low
            return out
        cells = s.cells
        last = s.chain[-1]
        if s.one_change and s.changed:
            ck = s.chain_kind
            return [j for j, kind in b.nb[last] if not cells[j] and kind == ck]
        return [j for j, _ in b.nb[last] if not cells[j]]

    def _turn_moves(self, s: RondoState) -> tuple:
        rack = s.racks[s.turn]
        total = rack[0] + rack[1] + rack[2] + rack[3] + rack[4]
        out = [END] if s.chain else ([DRAW] if total < MAX_RACK else [])
        if not total:
            return tuple(out)
        b = s.board
        mask = (
            (rack[0] > 0) | (rack[1] > 0) << 1 | (rack[2] > 0) << 2 | (rack[3] > 0) << 3 | (rack[4] > 0) << 4
        )
        colour, up, down = b.colour, b.up, b.down_by_rack
        for i in self._candidates(s):
            n = rack[colour[i]]
            if n:
                out.extend(up[i][:n])
            out.extend(down[i][mask])
        return tuple(out)

    def chance_outcomes(self, state: RondoState) -> list[tuple[RondoMove, int]]:
        """The chance step's outcomes with weights, in fixed order: the
        starting seat ``s0``..``s{N-1}`` (weight 1 each), or a tile draw
        ``tile yellow``, ``tile red``, ``tile purple``, ``tile blue``, ``tile
        green``, each weighted by the tiles of that colour left in the bag
        (colours with none left are not listed). Raises ``IllegalMoveError``
        when it is not a chance step."""
        phase = state.phase
        if phase == "start":
            return [(m, 1) for m in START[: state.players]]
        if phase in ("deal", "draw"):
            bag = state.bag
            return [(TILE[c], bag[c]) for c in range(5) if bag[c]]
        raise IllegalMoveError("chance_outcomes: the next step is not a chance step")

    def chance_count(self, state: RondoState) -> int:
        """k of the next chance step: chance steps met so far (the starting
        seat is k=0, then one step per tile drawn)."""
        return state.k

    def parse_move(self, text: str) -> RondoMove:
        """See ``games.rondo.engine.moves.parse_move``."""
        return parse_move(text)

    def outcome(self, state: RondoState) -> Outcome | None:
        """Ranks when over (rulebook "End of the Game"; docs/rules.md "Result and
        ranking", "Leaving"): seats that stayed by score, then by tiles left on
        the rack, still tied share a place; leavers below them, the earlier
        leaver lower. Reason "finished" or "last_player_standing"."""
        if state.phase != "over":
            return None
        n = state.players
        left = state.left
        stayed = [s for s in range(n) if s not in left]
        keys = {s: (state.scores[s], sum(state.racks[s])) for s in stayed}
        ranks = [0] * n
        for s in stayed:
            ranks[s] = 1 + sum(1 for t in stayed if keys[t] > keys[s])
        ahead = len(stayed)
        for s in reversed(left):
            ranks[s] = ahead + 1
            ahead += 1
        return Outcome(tuple(ranks), state.reason)

    # -- playing -------------------------------------------------------------
    def play(self, state: RondoState, move: RondoMove | str) -> RondoState:
        """The state after one ply: ``move`` (a ``RondoMove`` or its notation)
        played in ``state``, which is left unchanged.

        Raises ``InvalidMoveError`` when the move does not parse and
        ``IllegalMoveError`` when the rules forbid it here (the message names
        the move and the reason, and never the colour of a tile that another
        seat may not know).
        """
        if move.__class__ is str:
            move = parse_move(move)
        elif move.__class__ is not RondoMove:
            raise InvalidMoveError(f"{move!r} is not a Rondo move")
        kind = move.kind
        phase = state.phase
        if kind == "place" and phase == "turn":
            return self._place(state, move)
        if kind == "tile" and (phase == "deal" or phase == "draw"):
            if not state.bag[move.colour]:
                raise IllegalMoveError(f"{move} is not legal here: the bag holds no tile of that colour")
            return self._drawn(state, move.colour)
        if kind == "end" and phase == "turn" and state.chain:
            return self._begin_draw(state, 1)
        if kind == "draw" and phase == "turn" and not state.chain:
            total = sum(state.racks[state.turn])
            if total >= MAX_RACK:
                raise IllegalMoveError(
                    f"draw is not legal here: a rack of {MAX_RACK} tiles must place (rulebook, Option B)"
                )
            return self._begin_draw(state, 1 if total == MAX_RACK - 1 else 2)
        if kind == "start" and phase == "start":
            if move.seat >= state.players:
                raise IllegalMoveError(
                    f"{move} is not legal here: the match has seats 0..{state.players - 1}"
                )
            return self._started(state, move.seat)
        if kind == "leave":
            return self._leave(state, move.seat)
        if kind == "timeout":
            return self._timeout(state)
        raise IllegalMoveError(f"{move} is not legal here: {self._why_illegal(state, move)}")

    def _why_illegal(self, state: RondoState, move: RondoMove) -> str:
        phase = state.phase
        if phase == "over":
            return "the match is over"
        if phase == "start":
            return "the next step is a chance step (the starting seat)"
        if phase in ("deal", "draw"):
            return "the next step is a chance step (a tile drawn from the bag)"
        if move.kind == "end":
            return "there is no placement to end yet (place a tile, or draw)"
        if move.kind == "draw":
            return "tiles were placed this turn: end the chain to draw 1"
        return f"seat {state.turn} must place tiles or draw"

    def _place(self, s: RondoState, move: RondoMove) -> RondoState:
        """Rulebook "Option A": one space of the chain, face up (tiles of the
        space's colour, value each) or one tile face down (no points)."""
        b = s.board
        i = b.index.get(move.space)
        if i is None:
            raise IllegalMoveError(f"{move} is not legal: there is no space {move.space} on this board")
        if s.cells[i]:
            raise IllegalMoveError(f"{move} is not legal: space {move.space} is already occupied")
        seat = s.turn
        rack = list(s.racks[seat])
        if move.count:
            c = b.colour[i]
            if rack[c] < move.count:
                raise IllegalMoveError(
                    f"{move} is not legal: your rack holds {rack[c]} {COLOURS[c]} tile(s) for this "
                    f"{COLOURS[c]} space"
                )
            rack[c] -= move.count
            cell = move.count
            gain = move.count * b.value[i]
        else:
            if not rack[move.colour]:
                raise IllegalMoveError(f"{move} is not legal: your rack holds no tile of that colour")
            rack[move.colour] -= 1
            cell = down_code(move.colour, seat)
            gain = 0
        chain = s.chain
        if chain:
            last = chain[-1]
            kind = b.edge_kind.get((last, i))
            if kind is None:
                raise IllegalMoveError(
                    f"{move} is not legal: {move.space} is not next to {b.ids[last]}, the last space of "
                    "the chain (a chain does not branch or jump)"
                )
            ck = s.chain_kind
            change = ck != 0 and kind != ck
            if change and s.changed and s.one_change:
                raise IllegalMoveError(
                    f"{move} is not legal: the chain has already changed once between ring and radial"
                )
            changed = s.changed or change
        else:
            if not s.frontier >> i & 1:
                raise IllegalMoveError(
                    f"{move} is not legal: the first space of a chain must be next to an occupied space "
                    "or the centre"
                )
            kind = 0
            changed = False
        occ = s.occ | 1 << i
        racks = s.racks
        scores = s.scores
        if gain:
            scores = scores[:seat] + (scores[seat] + gain,) + scores[seat + 1 :]
        return RondoState(
            b,
            s.players,
            "turn",
            seat,
            s.starter,
            0,
            s.bag,
            racks[:seat] + (tuple(rack),) + racks[seat + 1 :],
            s.cells[:i] + (cell,) + s.cells[i + 1 :],
            scores,
            chain + (i,),
            kind,
            changed,
            s.ending,
            s.left,
            "",
            s.k,
            s.one_change,
            occ,
            (s.frontier | b.nb_mask[i]) & ~occ,
        )

    def _begin_draw(self, s: RondoState, required: int) -> RondoState:
        """Draw ``required`` tiles for the seat to move: as many as the bag
        holds; fewer triggers the end (rulebook "End of the Game"; docs/rules.md
        "Rondo": End). An empty bag means no draw and no chance step."""
        n = min(required, sum(s.bag))
        ending = s.ending or n < required
        if n == 0:
            return self._finish_turn(s, ending)
        return s.replace(phase="draw", pending=n, ending=ending, chain=(), chain_kind=0, changed=False)

    def _drawn(self, s: RondoState, c: int) -> RondoState:
        seat = s.turn
        rack = s.racks[seat]
        rack = rack[:c] + (rack[c] + 1,) + rack[c + 1 :]
        bag = s.bag[:c] + (s.bag[c] - 1,) + s.bag[c + 1 :]
        racks = s.racks[:seat] + (rack,) + s.racks[seat + 1 :]
        pending = s.pending - 1
        nxt = RondoState(
            s.board,
            s.players,
            s.phase,
            seat,
            s.starter,
            pending,
            bag,
            racks,
            s.cells,
            s.scores,
            (),
            0,
            False,
            s.ending,
            s.left,
            "",
            s.k + 1,
            s.one_change,
            s.occ,
            s.frontier,
        )
        if pending and sum(bag):
            return nxt
        if s.phase == "draw":
            return self._finish_turn(nxt, nxt.ending)
        return self._next_deal(nxt)

    def _started(self, s: RondoState, seat: int) -> RondoState:
        # docs/rules.md "Seats and colours": if the drawn seat has left, the next remaining seat starts.
        if seat in s.left:
            seat = next_seat(seat, s.players, s.left)
        return self._deal_to(s.replace(starter=seat, k=s.k + 1), seat)

    def _deal_to(self, s: RondoState, seat: int) -> RondoState:
        """docs/rules.md "The start": each seat in turn order draws its 2 tiles."""
        n = min(OPENING_TILES, sum(s.bag))
        if n == 0:
            return self._first_turn(s)
        return s.replace(phase="deal", turn=seat, pending=n)

    def _next_deal(self, s: RondoState) -> RondoState:
        nxt = next_seat(s.turn, s.players, s.left)
        if nxt == round_start(s):
            return self._first_turn(s)
        return self._deal_to(s, nxt)

    def _first_turn(self, s: RondoState) -> RondoState:
        first = round_start(s)
        state = s.replace(phase="turn", turn=first, pending=0)
        if self._stuck(state):
            return self._finish_turn(state, state.ending)
        return state

    @staticmethod
    def _stuck(s: RondoState) -> bool:
        """A seat with a full rack and nowhere to place has no choice: the
        engine passes it over (docs/rules.md "No stuck seat")."""
        return not s.chain and sum(s.racks[s.turn]) >= MAX_RACK and not s.frontier

    def _finish_turn(self, s: RondoState, ending: bool) -> RondoState:
        """The turn of ``s.turn`` is over: check the end (rulebook "End of the
        Game": the last gray space covered, or a draw that fell short), finish
        the round, else pass the turn on (over stuck seats)."""
        b = s.board
        if b.gray_mask and s.occ & b.gray_mask == b.gray_mask:
            ending = True
        seat = s.turn
        start = round_start(s)
        for _ in range(s.players + 1):
            seat = next_seat(seat, s.players, s.left)
            if ending and seat == start:
                return self._over(s, "finished", ending)
            nxt = RondoState(
                b,
                s.players,
                "turn",
                seat,
                s.starter,
                0,
                s.bag,
                s.racks,
                s.cells,
                s.scores,
                (),
                0,
                False,
                ending,
                s.left,
                "",
                s.k,
                s.one_change,
                s.occ,
                s.frontier,
            )
            if not self._stuck(nxt):
                return nxt
            if seat == start:
                ending = True  # a whole round in which nobody could move: nothing can change
        return self._over(s, "finished", True)

    @staticmethod
    def _over(s: RondoState, reason: str, ending: bool) -> RondoState:
        return s.replace(
            phase="over",
            turn=-1,
            pending=0,
            chain=(),
            chain_kind=0,
            changed=False,
            ending=ending,
            reason=reason,
        )

    @staticmethod
    def _take_back(s: RondoState) -> RondoState:
        """The placements of the turn in progress return to the rack (a turn
        that times out or whose seat leaves places nothing; docs/rules.md "Turn timer")."""
        if not s.chain:
            return s
        b = s.board
        seat = s.turn
        rack = list(s.racks[seat])
        cells = list(s.cells)
        score = s.scores[seat]
        for i in s.chain:
            v = cells[i]
            if v > 0:
                rack[b.colour[i]] += v
                score -= v * b.value[i]
            else:
                rack[down_colour(v)] += 1
            cells[i] = 0
        occ = s.occ
        for i in s.chain:
            occ &= ~(1 << i)
        return RondoState(
            b,
            s.players,
            s.phase,
            seat,
            s.starter,
            s.pending,
            s.bag,
            s.racks[:seat] + (tuple(rack),) + s.racks[seat + 1 :],
            tuple(cells),
            s.scores[:seat] + (score,) + s.scores[seat + 1 :],
            (),
            0,
            False,
            s.ending,
            s.left,
            "",
            s.k,
            s.one_change,
            occ,
            frontier_of(b, occ),
        )

    def _timeout(self, s: RondoState) -> RondoState:
        """docs/rules.md "Turn timer": the turn passes with no placement and no draw."""
        if s.phase != "turn":
            raise IllegalMoveError(f"timeout is not possible here: {self._no_seat(s)}")
        s = self._take_back(s)
        return self._finish_turn(s, s.ending)

    def _leave(self, s: RondoState, seat: int) -> RondoState:
        """docs/rules.md "Leaving": the leaver takes no more turns; its tiles on the
        board stay (a chain it was placing is taken back); when one seat
        remains, it wins."""
        self._check_leave(s, seat)
        mine = s.phase != "start" and s.turn == seat
        if mine and s.phase == "turn":
            s = self._take_back(s)
        left = s.left + (seat,)
        remaining = [t for t in range(s.players) if t not in left]
        s = s.replace(left=left)
        if len(remaining) == 1:
            return self._over(s, "last_player_standing", s.ending)
        if not mine:
            return s
        if s.phase == "deal":
            return self._next_deal(s.replace(pending=0))
        return self._finish_turn(s.replace(phase="turn", pending=0), s.ending)

    def _check_leave(self, s: RondoState, seat) -> None:
        if type(seat) is not int or not 0 <= seat < s.players:
            raise IllegalMoveError(f"leave {seat}: the match has seats 0..{s.players - 1}")
        if s.phase == "over":
            raise IllegalMoveError(f"leave {seat} is not possible: the match is over")
        if seat in s.left:
            raise IllegalMoveError(f"leave {seat} is not possible: seat {seat} has already left")

    @staticmethod
    def _no_seat(s: RondoState) -> str:
        if s.phase == "over":
            return "the match is over"
        return "the next step is a chance step, not a seat's decision"

    # -- the server's events ---------------------------------------------
    def timeout_move(self, state: RondoState) -> RondoMove:
        """``timeout`` for the seat to move. Raises ``IllegalMoveError`` at a
        chance step or when over."""
        if state.phase != "turn":
            raise IllegalMoveError(f"timeout is not possible here: {self._no_seat(state)}")
        return TIMEOUT

    def leave_move(self, state: RondoState, seat: int) -> RondoMove:
        """``leave N`` for any seat still playing, at any time (docs/rules.md
        "Leaving"). Raises ``IllegalMoveError`` for a seat out of range, a
        seat that has left, or a match that is over."""
        self._check_leave(state, seat)
        return LEAVE[seat]

    def forced_move(self, state: RondoState) -> None:
        """Always None: Rondo has no forced-move option; a seat with no
        choice at all is passed over by the engine itself."""
        return None

    def seat_status(self, state: RondoState) -> list[str]:
        """Per seat: "playing", "left", or "done" (stayed to the end)."""
        live = "done" if state.phase == "over" else "playing"
        return ["left" if s in state.left else live for s in range(state.players)]

    # -- views and persistence ---------------------------------------------
    def view(self, state: RondoState, seat: int | None) -> dict:
        """The JSON-safe view for ``seat`` (None: spectator); see
        ``games.rondo.engine.view.view``. Raises ``ValueError`` for a seat out
        of range."""
        return _view.view(self, state, seat)

    def hidden(self, state: RondoState, seat: int | None) -> frozenset[tuple]:
        """What ``seat`` (None: spectator) may not know: other racks, others'
        face-down colours, the bag; see ``games.rondo.engine.view.hidden``.
        Raises ``ValueError`` for a seat out of range."""
        return _view.hidden(state, seat)

    def hidden_in_move(self, state: RondoState, move: RondoMove | str, seat: int | None) -> frozenset[tuple]:
        """The colours ``move`` records that ``seat`` may not know (another
        seat's drawn tile or face-down tile); see
        ``games.rondo.engine.view.hidden_in_move``. Raises
        ``InvalidMoveError`` or ``ValueError`` for a seat out of range."""
        if move.__class__ is str:
            move = parse_move(move)
        elif move.__class__ is not RondoMove:
            raise InvalidMoveError(f"{move!r} is not a Rondo move")
        return _view.hidden_in_move(state, move, seat)

    def sample_state(self, view: dict, seat: int | None, rng=None) -> RondoState:
        """A full state consistent with ``view``: the tiles ``seat`` cannot see
        (other racks, others' face-down tiles, the bag) dealt at random with
        ``rng`` from the tiles not in sight. Raises ``InvalidStateError``."""
        return _view.sample(self, view, seat, rng)

    def dump(self, state: RondoState) -> dict:
        """JSON-safe dict; see ``games.rondo.engine.view.dump``."""
        return _view.dump(state)

    def load(self, data: dict) -> RondoState:
        """The state ``dump`` wrote. Raises ``InvalidStateError``."""
        return _view.load(self, data)

    # -- helpers for views and bots -----------------------------------------
    def placements(self, state: RondoState, space: str) -> list[RondoMove]:
        """The placements the rack of the seat to move allows on the empty
        ``space`` (an id), in the legal moves' order (face up 1..n, then face
        down by colour), whether or not the chain may go there now (for a page
        composing the chain: docs/rules.md "Rondo", "Placing"). ``[]`` outside
        a turn or on an occupied space."""
        if state.phase != "turn":
            return []
        b = state.board
        i = b.index[space]
        if state.cells[i]:
            return []
        rack = state.racks[state.turn]
        mask = sum(1 << c for c in range(5) if rack[c])
        return list(b.up[i][: rack[b.colour[i]]]) + list(b.down_by_rack[i][mask])

    def candidates(self, state: RondoState) -> list[str]:
        """Ids of the spaces the next placement of the turn may go on
        (ignoring the rack)."""
        if state.phase != "turn":
            return []
        return [state.board.ids[i] for i in self._candidates(state)]


__all__ = ["CHANCE", "RondoRules", "next_seat", "round_start"]
