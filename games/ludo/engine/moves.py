"""Ludo moves and their text notation.

Notation (every move's ``str()``; ``parse_move`` reads it back):

==============  ===========================================================
``roll``        the seat to move rolls the die (a move of that seat)
``d1`` .. ``d6``  chance outcome: the die shows 1..6 (equal weights)
``s0`` .. ``s3``  chance outcome: seat 0..N-1 starts (equal weights)
``p0`` .. ``p3``  the seat to move moves its piece 0..3 by the die
``timeout``     server event: the seat to move missed its turn
``leave N``     server event: seat N (0..3) leaves the match
==============  ===========================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.base import InvalidMoveError

KINDS = ("roll", "die", "start", "piece", "timeout", "leave")
_RANGES = {
    "roll": (0, 0),
    "timeout": (0, 0),
    "die": (1, 6),
    "start": (0, 3),
    "piece": (0, 3),
    "leave": (0, 3),
}
_PREFIX = {"die": "d", "start": "s", "piece": "p"}


@dataclass(frozen=True, slots=True)
class LudoMove:
    """One Ludo move: ``kind`` (one of ``KINDS``) and ``value`` (die 1..6,
    seat 0..3 or piece 0..3; 0 for roll and timeout).

    Raises ``InvalidMoveError`` when built with an unknown kind or a value out
    of range, so every ``LudoMove`` is well-formed.
    """

    kind: str
    value: int = 0

    def __post_init__(self):
        bounds = _RANGES.get(self.kind)
        if bounds is None or type(self.value) is not int or not bounds[0] <= self.value <= bounds[1]:
            raise InvalidMoveError(f"LudoMove({self.kind!r}, {self.value!r}) is not a Ludo move")

    def __str__(self) -> str:
        if self.kind in _PREFIX:
            return f"{_PREFIX[self.kind]}{self.value}"
        if self.kind == "leave":
            return f"leave {self.value}"
        return self.kind

    @property
    def is_server_event(self) -> bool:
        """True for ``timeout`` and ``leave N``, which only the server issues."""
        return self.kind in ("timeout", "leave")


ROLL = LudoMove("roll")
TIMEOUT = LudoMove("timeout")
#: DIE[v] for v in 1..6 (DIE[0] unused).
DIE = (None,) + tuple(LudoMove("die", v) for v in range(1, 7))
START = tuple(LudoMove("start", s) for s in range(4))
PIECE = tuple(LudoMove("piece", i) for i in range(4))
LEAVE = tuple(LudoMove("leave", s) for s in range(4))

_BY_TEXT = {str(m): m for m in (ROLL, TIMEOUT, *DIE[1:], *START, *PIECE, *LEAVE)}


def parse_move(text: str) -> LudoMove:
    """The move written ``text`` (see the module notation table); surrounding
    blanks and repeated inner blanks are ignored, case is not.

    Raises ``InvalidMoveError`` naming the text when it is not a Ludo move.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"{text!r} is not a Ludo move: expected a string in the move notation")
    move = _BY_TEXT.get(" ".join(text.split()))
    if move is None:
        raise InvalidMoveError(
            f"{text!r} is not a Ludo move: expected roll, d1..d6, s0..s3, p0..p3, timeout"
            " or 'leave N' (N 0..3)"
        )
    return move
