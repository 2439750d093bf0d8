"""Roundabout moves and their text notation.

Notation (every move's ``str()``; ``parse_move`` reads it back). Dart numbers
are the mover's own darts, 0..9 (10 darts with 2 players, 8 with 3, 6 with 4).

================  ===========================================================
``d1`` .. ``d6``  chance outcome: one roll-off die (docs/rules.md "The start")
``d1-1`` ..       chance outcome: the two dice of a turn, first die first
``d6-6``          (36 ordered outcomes, weight 1 each)
``roll``          the seat to move rolls both dice
``3r5``           dart 3 moves 5 spaces around its ring, the way it faces
``3i2``           dart 3 moves 2 spaces inward along its bar (towards ring 1)
``3o4``           dart 3 moves 4 spaces outward along its bar (towards ring 5)
``rev 3``         reversing doubles: dart 3 turns to face the other way
``offer 2 1``     Golden Rule: offer the roll to seat 2, then to seat 1
``accept``        the offered seat plays the roll as its own
``decline``       the offered seat declines
``pass``          end the turn where every remaining choice is optional
``timeout``       server event: the seat to move missed the rest of its turn
``leave N``       server event: seat N (0..3) leaves the match
================  ===========================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

from games.engine.base import InvalidMoveError

KINDS = (
    "rolloff",
    "dice",
    "roll",
    "dart",
    "reverse",
    "offer",
    "accept",
    "decline",
    "pass",
    "timeout",
    "leave",
)
DIRECTIONS = ("r", "i", "o")
DIRECTION_NAMES = {"r": "ring", "i": "in", "o": "out"}
MAX_DARTS = 10


@dataclass(frozen=True, slots=True, eq=False)
class RoundaboutMove:
    """One Roundabout move. ``kind`` is one of ``KINDS``; ``dart`` (0..9),
    ``die`` (1..6; for "dice" the first die), ``second`` (the second die of a
    "dice" outcome), ``direction`` ("r", "i", "o"), ``seats`` (offer order;
    for "leave" the leaving seat) as the kind needs them.

    Moves are interned: build them with ``parse_move`` or the tables below
    (every move there is well-formed), and compare them by identity or by
    notation. ``canonical`` maps any equal-fielded copy to its table entry.
    """

    kind: str
    dart: int = -1
    die: int = 0
    second: int = 0
    direction: str = ""
    seats: tuple[int, ...] = ()

    def __str__(self) -> str:
        text = _TEXT.get(self)
        return text if text is not None else _text(self)

    def __repr__(self) -> str:
        return f"RoundaboutMove({str(self)!r})"

    @property
    def is_server_event(self) -> bool:
        """True for ``timeout`` and ``leave N``, which only the server issues."""
        return self.kind in ("timeout", "leave")


def _text(m: RoundaboutMove) -> str:
    k = m.kind
    if k == "rolloff":
        return f"d{m.die}"
    if k == "dice":
        return f"d{m.die}-{m.second}"
    if k == "dart":
        return f"{m.dart}{m.direction}{m.die}"
    if k == "reverse":
        return f"rev {m.dart}"
    if k == "offer":
        return "offer " + " ".join(map(str, m.seats))
    if k == "leave":
        return f"leave {m.seats[0]}"
    return k


ROLL = RoundaboutMove("roll")
ACCEPT = RoundaboutMove("accept")
DECLINE = RoundaboutMove("decline")
PASS = RoundaboutMove("pass")
TIMEOUT = RoundaboutMove("timeout")
#: ROLLOFF[v] for v in 1..6 (index 0 unused).
ROLLOFF = (None,) + tuple(RoundaboutMove("rolloff", die=v) for v in range(1, 7))
#: DICE in the documented chance order: index i is (i // 6 + 1, i % 6 + 1).
DICE = tuple(RoundaboutMove("dice", die=i // 6 + 1, second=i % 6 + 1) for i in range(36))
#: DART[dart][direction index 0 r, 1 i, 2 o][die]
DART = tuple(
    tuple(
        tuple(None if v == 0 else RoundaboutMove("dart", dart=d, die=v, direction=x) for v in range(7))
        for x in DIRECTIONS
    )
    for d in range(MAX_DARTS)
)
REVERSE = tuple(RoundaboutMove("reverse", dart=d) for d in range(MAX_DARTS))
LEAVE = tuple(RoundaboutMove("leave", seats=(s,)) for s in range(4))
#: OFFER[(seats...)]: every ordered choice of 1..3 distinct seats 0..3.
OFFER = {
    order: RoundaboutMove("offer", seats=order) for n in (1, 2, 3) for order in permutations(range(4), n)
}

_ALL = [ROLL, ACCEPT, DECLINE, PASS, TIMEOUT, *ROLLOFF[1:], *DICE, *REVERSE, *LEAVE, *OFFER.values()] + [
    m for per_dart in DART for per_dir in per_dart for m in per_dir if m is not None
]
_TEXT = {m: _text(m) for m in _ALL}
_BY_TEXT = {t: m for m, t in _TEXT.items()}


def canonical(move: RoundaboutMove) -> RoundaboutMove:
    """The interned move with the same fields as ``move``. Raises
    ``InvalidMoveError`` when it is not a well-formed Roundabout move."""
    try:
        return _BY_TEXT[_text(move)]
    except (KeyError, TypeError, ValueError, IndexError):
        raise InvalidMoveError(f"{move!r} is not a Roundabout move") from None


def parse_move(text: str) -> RoundaboutMove:
    """The move written ``text`` (see the module notation table); surrounding
    blanks and repeated inner blanks are ignored, case is not.

    Raises ``InvalidMoveError`` naming the text when it is not a Roundabout move.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"{text!r} is not a Roundabout move: expected a string in the move notation")
    move = _BY_TEXT.get(" ".join(text.split()))
    if move is None:
        raise InvalidMoveError(
            f"{text!r} is not a Roundabout move: expected roll, d1..d6, d1-1..d6-6, a dart move like 3r5,"
            " 3i2 or 3o4 (dart, ring/in/out, die), 'rev N', 'offer N ...', accept, decline, pass,"
            " timeout or 'leave N'"
        )
    return move
