"""What every game engine shares: the chance seat, errors, the outcome and the
interface a rules object offers.

Pure Python; never imports Django (STYLE.md, habit 1). The rules decisions
behind this interface are in docs/rules.md, section "Common".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: What ``to_move`` returns when the next step is a random event (a chance
#: step). Not a seat: seats are 0..N-1.
CHANCE = -1

#: The reasons a match can end with, as found in ``Outcome.reason``.
#: "finished": a player completed the game (Ludo: all four pieces home).
#: "last_player_standing": every other seat left the match.
#: "stalled", "turn_limit": Roundabout's end of a stalled or overlong match
#: (docs/rules.md "Every match ends").
END_REASONS = ("finished", "last_player_standing", "stalled", "turn_limit")

#: What ``seat_status`` reports for each seat.
#: "playing": still in a live match; "left": left the match (or was removed);
#: "done": stayed until the match ended (its rank is in the outcome).
SEAT_STATUSES = ("playing", "left", "done")


@dataclass(frozen=True)
class RecordLine:
    """One line of the move list: ``ply`` (0-based), the seat it concerns
    (or None), and ``text`` in English. Each game's ``record.describe``
    makes these from its notation.

    ``begins``: "turn" when the line opens a new numbered turn (a seat's roll
    or decision that starts its turn), "setup" when it opens what comes
    before the first turn (drawing the starting seat, a roll-off, the deal),
    "" when it belongs to the turn already open (the die's moves, a capture,
    a piece reaching home, a leave). The move list numbers turns, not plies
    (docs/rules.md "The move list").

    ``note``: a detail the line's words leave out, shown as its title
    (Rondo: the space's code, "Space I03"); public like the text."""

    ply: int
    seat: int | None
    text: str
    begins: str = ""
    note: str = ""


def seat_label(names: dict[int, str], seat: int) -> str:
    """How a record line names ``seat``: its label in ``names`` (seat index
    -> text), else "Seat N"."""
    return names.get(seat, f"Seat {seat}")


def idled_out(moves, i: int) -> bool:
    """True when ``moves[i]`` (a ``leave``) is the idle-out that follows its
    seat's missed turn in the same change (docs/rules.md "Idle seats"): a
    ``timeout`` of that seat just before it, recorded with the same version
    when the moves carry one."""
    if i == 0:
        return False
    prev, m = moves[i - 1], moves[i]
    same_change = getattr(prev, "version_after", None) == getattr(m, "version_after", None)
    return prev.notation == "timeout" and prev.seat == m.seat and same_change


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""


class UnknownGameError(EngineError):
    """``get_rules`` was asked for a game that is not registered."""


class InvalidOptionsError(EngineError):
    """``new_match`` got a player count or option the game does not allow."""


class InvalidStateError(EngineError):
    """``load`` or ``sample_state`` got data that is not a state of this game."""


class InvalidMoveError(EngineError):
    """A move that does not parse (bad notation or a foreign object)."""


class IllegalMoveError(EngineError):
    """A well-formed move that the rules forbid in this state."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished match ended.

    ``ranks[seat]`` is that seat's final place, 1 = first. Tied seats share a
    place and the next place is skipped (standard competition ranking,
    "1224"): a seat's rank is 1 + the number of seats strictly ahead of it.
    ``reason`` is one of ``END_REASONS``.
    """

    ranks: tuple[int, ...]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form: ``{"ranks": [...], "reason": str}``."""
        return {"ranks": list(self.ranks), "reason": self.reason}


def leaver_ranks(players: int, first: tuple[int, ...], left: tuple[int, ...]) -> tuple[int, ...]:
    """Ranks for games where the seats in ``first`` share first place, every
    other seat that stayed shares the next place, and leavers rank below all
    who stayed, the earlier leaver lower (docs/rules.md "Leaving", "Result and ranking").

    ``left`` lists the seats that left in the order they left. Returns a tuple
    of ``players`` ranks (competition ranking, see ``Outcome``).
    """
    ranks = [0] * players
    stayed = [s for s in range(players) if s not in left]
    others = [s for s in stayed if s not in first]
    for s in first:
        ranks[s] = 1
    for s in others:
        ranks[s] = len(first) + 1
    ahead = len(stayed)
    for s in reversed(left):  # the last to leave ranks highest among leavers
        ranks[s] = ahead + 1
        ahead += 1
    return tuple(ranks)



class HidesNothing:
    """``hidden`` and ``hidden_in_move`` for a game whose state and moves are
    all public (every piece on the shared board, dice rolled in the open):
    both always empty. Put it before ``Rules`` in the bases. The match's one
    secret, its seed, belongs to the platform, not to the state (docs/rules.md
    "Common": Provably fair randomness). ``move_type`` is the game's move class."""

    move_type: type

    def _check_viewer(self, state, seat) -> None:
        players = len(self.seat_status(state))
        if seat is not None and (type(seat) is not int or not 0 <= seat < players):
            raise ValueError(f"seat {seat!r} is not a seat of this {players}-player match")

    def hidden(self, state, seat: int | None) -> frozenset[tuple]:
        """Always empty (see ``Rules.hidden``). Raises ``ValueError`` for a seat out of range."""
        self._check_viewer(state, seat)
        return frozenset()

    def hidden_in_move(self, state, move, seat: int | None) -> frozenset[tuple]:
        """Always empty: no move records anything a viewer may not know.
        Raises ``InvalidMoveError`` for a move that does not parse and
        ``ValueError`` for a seat out of range."""
        if move.__class__ is str:
            self.parse_move(move)
        elif move.__class__ is not self.move_type:
            raise InvalidMoveError(f"{move!r} is not a {self.move_type.__name__}")
        self._check_viewer(state, seat)
        return frozenset()


class Rules:
    """The interface every game offers (reached through ``get_rules``).

    States are immutable values: ``play`` returns a new state and never
    changes its input. Moves are small frozen values whose ``str()`` is their
    notation and ``parse_move`` reads it back. Subclasses implement every
    method; this class documents the contract.
    """

    #: Registry name, e.g. "ludo".
    name: str = ""
    #: Allowed player counts.
    player_counts: tuple[int, ...] = ()
    #: Option names with their defaults; ``new_match`` rejects any other.
    default_options: dict[str, Any] = {}

    # -- creating and reading states -------------------------------------
    def new_match(self, players: int, options: dict | None = None):
        """A new match for ``players`` seats. Raises ``InvalidOptionsError``."""
        raise NotImplementedError

    def to_move(self, state) -> int | None:
        """The seat whose decision it is, ``CHANCE``, or None when over."""
        raise NotImplementedError

    def legal_moves(self, state) -> list:
        """Moves open to whoever is to move (at a chance step its outcomes);
        empty exactly when the match is over. Server events are not listed."""
        raise NotImplementedError

    def chance_outcomes(self, state) -> list[tuple[Any, int]]:
        """At a chance step, ``[(move, weight), ...]`` in the documented fixed
        order, integer weights > 0; raises ``IllegalMoveError`` otherwise."""
        raise NotImplementedError

    def chance_count(self, state) -> int:
        """How many chance steps the match has met: k of the next one."""
        raise NotImplementedError

    def play(self, state, move):
        """The state after ``move`` (a move or its notation string). Raises
        ``InvalidMoveError`` (does not parse) or ``IllegalMoveError``."""
        raise NotImplementedError

    def parse_move(self, text: str):
        """The move written ``text``. Raises ``InvalidMoveError`` with a message
        that names ``text`` and says what was expected (players see it as is)."""
        raise NotImplementedError

    def outcome(self, state) -> Outcome | None:
        """The result when the match is over, else None."""
        raise NotImplementedError

    def is_over(self, state) -> bool:
        """True when the match has ended."""
        return self.to_move(state) is None

    # -- the server's events ---------------------------------------------
    def timeout_move(self, state):
        """The "missed turn" move for the seat to move (only the server issues
        it). Raises ``IllegalMoveError`` when no seat is to move."""
        raise NotImplementedError

    def leave_move(self, state, seat: int):
        """The move by which ``seat`` leaves (any time, any seat still
        playing). Raises ``IllegalMoveError`` otherwise."""
        raise NotImplementedError

    def forced_move(self, state):
        """The move the server plays automatically for the seat to move, or
        None (never a roll; only when the match option allows it)."""
        raise NotImplementedError

    def seat_status(self, state) -> list[str]:
        """Per seat, one of ``SEAT_STATUSES``."""
        raise NotImplementedError

    # -- views and persistence ---------------------------------------------
    def view(self, state, seat: int | None) -> dict:
        """JSON-safe view for ``seat`` (None: a spectator), without anything
        that viewer may not see. Convention: what only that seat may see sits
        under the key "private"; every other key is the same for all viewers
        except "viewer" (the tests check this)."""
        raise NotImplementedError

    def hidden(self, state, seat: int | None) -> frozenset[tuple]:
        """What ``state`` holds that ``seat`` (None: a spectator) may not
        know, as facts: small JSON-safe tuples ``(kind, ..., value)`` whose
        last item is the value and whose other items name its subject (what
        the value is of), e.g. Rondo's ``("rack", 1, ("red", "green"))``:
        seat 1's rack holds a red and a green tile. ``view(state, seat)``
        states none of them (a viewer may still deduce some by counting).

        A spectator knows least: ``hidden(state, s) <= hidden(state, None)``
        for every seat, so ``hidden(state, None)`` is every secret of the
        state. Empty once the match is over, and always for a game that
        hides nothing. tests/games/test_hidden_information.py checks that
        nothing a viewer receives (pushed frames, pages, snapshots, exports,
        a computer's input) shows a subject hidden from it.
        Raises ``ValueError`` for a seat out of range. Source: docs/rules.md "Common"
        (seat views, computer players) and each game's hidden-information rule.
        """
        raise NotImplementedError

    def hidden_in_move(self, state, move, seat: int | None) -> frozenset[tuple]:
        """The facts (in the form of ``hidden``) that ``move``, played in
        ``state`` (the state before it), writes into the match record and that
        ``seat`` (None: a spectator) may not know until the match ends, e.g.
        Rondo's drawn tile ``("tile", k, "red")`` (chance step k drew red) for
        every seat but the one that drew it. Whatever shows the record to
        ``seat`` before the end must leave them out. Empty for a game that
        hides nothing. Raises ``InvalidMoveError`` for a move that does not
        parse and ``ValueError`` for a seat out of range."""
        raise NotImplementedError

    def sample_state(self, view: dict, seat: int | None, rng):
        """A full state consistent with ``view`` (hidden parts drawn with
        ``rng``). Raises ``InvalidStateError``."""
        raise NotImplementedError

    def dump(self, state) -> dict:
        """JSON-safe dict that ``load`` turns back into an equal state."""
        raise NotImplementedError

    def load(self, data: dict):
        """The state ``dump`` wrote. Raises ``InvalidStateError``."""
        raise NotImplementedError
