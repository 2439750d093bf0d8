"""Rondo moves and their text notation.

A turn is a sequence of plies (the issue's "a turn is a sequence of plies"):
one ``place`` per space of the chain, then ``end`` (score and draw 1); or
``draw`` alone. Notation (every move's ``str()``; ``parse_move`` reads it back):

==========================  ==================================================
``place I03 2``             put 2 tiles face up on space I03 (they are of the
                            space's colour; 1..5 tiles)
``place I03 down red``      put one red tile face down on space I03
``end``                     end the chain: score it and draw 1 tile
``draw``                    place nothing and draw 2 tiles (1 with 4 on the rack)
``tile yellow`` .. ``tile green``  chance outcome: the tile drawn from the bag
``s0`` .. ``s3``            chance outcome: seat 0..N-1 starts
``timeout``                 server event: the seat to move missed its turn
``leave N``                 server event: seat N (0..3) leaves the match
==========================  ==================================================

Space names are the board's space ids (``rondo-board.json``). The notation of
a face-down placement and of a drawn tile names a colour that only its owner
may know: the match record holds it, and everything that shows the record to
others must leave it out (``games/record.py``; docs/rules.md "Hidden information").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.engine.base import InvalidMoveError

#: Tile colours in the fixed order of the chance steps (docs/rules.md "Provably fair
#: randomness"): index 0..4.
COLOURS = ("yellow", "red", "purple", "blue", "green")
COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}
MAX_SEATS = 4
MAX_RACK = 5

KINDS = ("place", "end", "draw", "tile", "start", "timeout", "leave")
_SPACE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,15}\Z")


@dataclass(frozen=True, slots=True)
class RondoMove:
    """One Rondo move.

    ``kind``: one of ``KINDS``. ``space``: the space id (``place``).
    ``count``: tiles placed face up, 1..5; 0 for one tile face down.
    ``colour``: colour index 0..4 of the face-down tile (``place`` with count
    0) or of the drawn tile (``tile``); -1 otherwise. ``seat``: the seat
    (``start``, ``leave``); -1 otherwise.

    Raises ``InvalidMoveError`` when the fields do not make a Rondo move, so
    every ``RondoMove`` is well-formed (it may still be illegal in a state).
    """

    kind: str
    space: str = ""
    count: int = 0
    colour: int = -1
    seat: int = -1

    def __post_init__(self):
        ok = self.kind in KINDS
        if ok and self.kind == "place":
            ok = (
                isinstance(self.space, str)
                and _SPACE.match(self.space) is not None
                and (
                    (type(self.count) is int and 1 <= self.count <= MAX_RACK and self.colour == -1)
                    or (self.count == 0 and type(self.colour) is int and 0 <= self.colour < 5)
                )
            )
        elif ok and self.kind == "tile":
            ok = type(self.colour) is int and 0 <= self.colour < 5 and not self.space and not self.count
        elif ok and self.kind in ("start", "leave"):
            ok = type(self.seat) is int and 0 <= self.seat < MAX_SEATS and not self.space
        elif ok:
            ok = not self.space and self.count == 0 and self.colour == -1 and self.seat == -1
        if not ok:
            raise InvalidMoveError(f"{self!r} is not a Rondo move")

    def __str__(self) -> str:
        kind = self.kind
        if kind == "place":
            if self.count:
                return f"place {self.space} {self.count}"
            return f"place {self.space} down {COLOURS[self.colour]}"
        if kind == "tile":
            return f"tile {COLOURS[self.colour]}"
        if kind == "start":
            return f"s{self.seat}"
        if kind == "leave":
            return f"leave {self.seat}"
        return kind

    @property
    def is_server_event(self) -> bool:
        """True for ``timeout`` and ``leave N``, which only the server issues."""
        return self.kind in ("timeout", "leave")

    @property
    def face_down(self) -> bool:
        """True for a placement of one tile face down."""
        return self.kind == "place" and self.count == 0


END = RondoMove("end")
DRAW = RondoMove("draw")
TIMEOUT = RondoMove("timeout")
TILE = tuple(RondoMove("tile", colour=c) for c in range(5))
START = tuple(RondoMove("start", seat=s) for s in range(MAX_SEATS))
LEAVE = tuple(RondoMove("leave", seat=s) for s in range(MAX_SEATS))

_FIXED = {str(m): m for m in (END, DRAW, TIMEOUT, *TILE, *START, *LEAVE)}
_PARSED: dict[str, RondoMove] = {}


def parse_move(text: str) -> RondoMove:
    """The move written ``text`` (see the module's notation table).
    Surrounding and repeated inner blanks are ignored; case is not.

    Raises ``InvalidMoveError`` naming the text when it is not a Rondo move.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"{text!r} is not a Rondo move: expected a string in the move notation")
    move = _FIXED.get(text) or _PARSED.get(text)
    if move is not None:
        return move
    words = text.split()
    move = _FIXED.get(" ".join(words))
    if move is None and len(words) in (3, 4) and words[0] == "place" and _SPACE.match(words[1]):
        if len(words) == 3 and words[2].isdigit() and 1 <= int(words[2]) <= MAX_RACK:
            move = RondoMove("place", words[1], int(words[2]))
        elif len(words) == 4 and words[2] == "down" and words[3] in COLOUR_INDEX:
            move = RondoMove("place", words[1], 0, COLOUR_INDEX[words[3]])
    if move is None:
        raise InvalidMoveError(
            f"{text[:40]!r} is not a Rondo move: expected 'place SPACE N' (N 1..5), "
            "'place SPACE down COLOUR', end, draw, 'tile COLOUR', s0..s3, timeout or 'leave N'"
        )
    if len(_PARSED) < 50_000:
        _PARSED[text] = move
    return move
