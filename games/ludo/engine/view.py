"""Ludo views (what a seat or spectator sees), move labels, dump and load.

Ludo hides nothing, so every view holds the same facts; ``viewer`` differs.
The view carries enough to rebuild the exact state (``from_view``), which is
what a computer player's ``sample_state`` does.
"""

from __future__ import annotations

from games.engine.base import CHANCE, InvalidStateError

from .board import (
    BASE,
    CELL,
    COLOUR_NAMES,
    HOME,
    LANE_FIRST,
    PIECES_PER_SEAT,
    RING_PROGRESS,
    SAFE_CELLS,
    SEAT_COLOURS,
    START_CELLS,
    where,
)
from .state import PHASES, LudoState, make

VIEW_PHASE = {"start": "chance", "die": "chance", "roll": "roll", "move": "move", "over": "over"}


def _label(piece: int, before: int, after: int, die: int, to_cell: int | None) -> str:
    """A piece move in a player's words, by the roll and where it ends, not by cell
    numbers: "Bring piece 1 out", "Move piece 0 forward 5, onto a safe cell",
    "… into your home lane", "… home" (the board shows where)."""
    if before == BASE:
        return f"Bring piece {piece} out"
    text = f"Move piece {piece} forward {die}"
    if after == HOME:
        return text + ", home"
    if after >= LANE_FIRST:
        return text + (", up your home lane" if before >= LANE_FIRST else ", into your home lane")
    if to_cell in SAFE_CELLS:
        return text + ", onto a safe cell"
    return text


def describe_move(state: LudoState, move) -> dict:
    """A piece move (or roll) as a dict for buttons: ``move`` (notation),
    ``label`` (short English in a player's words: ``_label``), and for piece
    moves ``piece``, ``from_progress`` / ``to_progress`` (None for base;
    0..56), ``from_cell`` / ``to_cell`` (ring cell 0..51 or None), ``to``
    ("ring", "lane", "home") and ``captures`` (seats whose pieces it sends to
    base)."""
    if move.kind != "piece":
        label = {"roll": "Roll the die"}.get(move.kind, str(move))
        return {"move": str(move), "label": label}
    seat = state.turn
    colours = SEAT_COLOURS[state.players]
    colour = colours[seat]
    i = move.value
    p = state.pieces[PIECES_PER_SEAT * seat + i]
    to = 0 if p == BASE else p + state.die
    captures = []
    to_cell = CELL[colour][to]
    if to_cell is not None and to_cell not in SAFE_CELLS:
        for other in range(state.players):
            q = RING_PROGRESS[colours[other]][to_cell]
            if (
                other != seat
                and q is not None
                and q in state.pieces[PIECES_PER_SEAT * other : PIECES_PER_SEAT * (other + 1)]
            ):
                captures.append(other)
    label = _label(i, p, to, state.die, to_cell)
    if captures:
        names = " and ".join(COLOUR_NAMES[colours[o]] for o in captures)
        label += f", capturing {names}"
    return {
        "move": str(move),
        "label": label,
        "piece": i,
        "from_progress": None if p == BASE else p,
        "from_cell": None if p == BASE else CELL[colour][p],
        "to_progress": to,
        "to_cell": to_cell,
        "to": where(to),
        "captures": captures,
    }


def view(rules, state: LudoState, seat: int | None) -> dict:
    """The JSON-safe view of ``state`` for ``seat`` (None: spectator).

    Shape::

        {"game": "ludo", "players": 2, "viewer": 0 | None,
         "phase": "chance" | "roll" | "move" | "over",
         "chance": "start" | "die" | None,      # what the chance step draws
         "to_move": seat | -1 (CHANCE) | None, "turn": seat | None,
         "die": 1..6 | None (last die rolled), "sixes": 0..2,
         "chance_count": k, "autoplay_forced": bool,
         "seats": [{"seat": 0, "colour": "red", "colour_index": 0,
                    "status": "playing" | "left" | "done", "start_cell": 0,
                    "home": pieces home 0..4,
                    "pieces": [{"piece": 0, "progress": None | 0..56,
                                "cell": None | 0..51,
                                "where": "base" | "ring" | "lane" | "home" | "removed"},
                               ...]}, ...],
         "left": [seats in the order they left],
         "moves": [describe_move(...) for each legal move of the seat to move],
         "forced": notation of the forced move or None,
         "outcome": None | {"ranks": [...], "reason": str},
         "winner": seat | None,
         "private": {}}   # what only this viewer may see: nothing in Ludo

    Raises ``ValueError`` for a seat out of range.
    """
    if seat is not None and (type(seat) is not int or not 0 <= seat < state.players):
        raise ValueError(f"seat {seat!r} is not a seat of this {state.players}-player match")
    colours = SEAT_COLOURS[state.players]
    statuses = rules.seat_status(state)
    seats = []
    for s in range(state.players):
        c = colours[s]
        pieces = []
        for i in range(PIECES_PER_SEAT):
            p = state.pieces[PIECES_PER_SEAT * s + i]
            pieces.append(
                {
                    "piece": i,
                    "progress": None if p == BASE else p,
                    "cell": None if p == BASE else CELL[c][p],
                    "where": "removed" if s in state.left else where(p),
                }
            )
        seats.append(
            {
                "seat": s,
                "colour": COLOUR_NAMES[c],
                "colour_index": c,
                "status": statuses[s],
                "start_cell": START_CELLS[c],
                "home": sum(1 for pc in pieces if pc["progress"] == HOME),
                "pieces": pieces,
            }
        )
    moves = [describe_move(state, m) for m in state.legal] if state.actor not in (None, CHANCE) else []
    forced = rules.forced_move(state)
    outcome = rules.outcome(state)
    return {
        "game": "ludo",
        "players": state.players,
        "viewer": seat,
        "phase": VIEW_PHASE[state.phase],
        "chance": state.phase if state.phase in ("start", "die") else None,
        "to_move": state.actor,
        "turn": state.turn if state.turn >= 0 else None,
        "die": state.die or None,
        "sixes": state.sixes,
        "chance_count": state.chance_count,
        "autoplay_forced": state.autoplay_forced,
        "seats": seats,
        "left": list(state.left),
        "moves": moves,
        "forced": None if forced is None else str(forced),
        "outcome": None if outcome is None else outcome.to_dict(),
        "winner": state.winner if state.winner >= 0 else None,
        # Secrets of the viewer's own seat go here and only here (see
        # Rules.view); every other key is the same for every viewer.
        "private": {},
    }


def from_view(v: dict) -> LudoState:
    """The state a view was made from. Raises ``InvalidStateError``."""
    try:
        phase = {"chance": v["chance"]}.get(v["phase"], v["phase"])
        pieces = [
            BASE if pc["progress"] is None else pc["progress"] for s in v["seats"] for pc in s["pieces"]
        ]
        return _build(
            {
                "players": v["players"],
                "phase": phase,
                "turn": v["turn"],
                "die": v["die"] or 0,
                "sixes": v["sixes"],
                "pieces": pieces,
                "left": v["left"],
                "winner": v.get("winner"),
                "reason": (v.get("outcome") or {}).get("reason", ""),
                "chance_count": v["chance_count"],
                "autoplay_forced": v["autoplay_forced"],
            }
        )
    except (KeyError, TypeError, AttributeError) as e:
        raise InvalidStateError(f"not a Ludo view: {e!r}") from None


def dump(state: LudoState) -> dict:
    """JSON-safe dict of the state: ``{"game": "ludo", "players", "phase",
    "turn" (seat or None), "die" (0..6, 0 = none), "sixes", "pieces" (per seat
    a list of 4 progresses, -1 = base), "left", "winner" (seat or None),
    "reason", "chance_count", "options": {"autoplay_forced": bool}}``."""
    n = state.players
    return {
        "game": "ludo",
        "players": n,
        "phase": state.phase,
        "turn": state.turn if state.turn >= 0 else None,
        "die": state.die,
        "sixes": state.sixes,
        "pieces": [list(state.pieces[PIECES_PER_SEAT * s : PIECES_PER_SEAT * (s + 1)]) for s in range(n)],
        "left": list(state.left),
        "winner": state.winner if state.winner >= 0 else None,
        "reason": state.reason,
        "chance_count": state.chance_count,
        "options": {"autoplay_forced": state.autoplay_forced},
    }


def load(data: dict) -> LudoState:
    """The state ``dump`` wrote, checked. Raises ``InvalidStateError``."""
    try:
        if data.get("game", "ludo") != "ludo":
            raise InvalidStateError(f"not a Ludo state: game {data.get('game')!r}")
        pieces = [p for seat in data["pieces"] for p in seat]
        return _build({**data, "pieces": pieces, "autoplay_forced": data["options"]["autoplay_forced"]})
    except (KeyError, TypeError, AttributeError) as e:
        raise InvalidStateError(f"not a Ludo state: {e!r}") from None


def _build(d: dict) -> LudoState:
    n = d["players"]
    if n not in SEAT_COLOURS:
        raise InvalidStateError(f"bad player count {n!r}")
    phase = d["phase"]
    if phase not in PHASES:
        raise InvalidStateError(f"bad phase {phase!r}")
    pieces = tuple(d["pieces"])
    if len(pieces) != PIECES_PER_SEAT * n or not all(type(p) is int and BASE <= p <= HOME for p in pieces):
        raise InvalidStateError(f"pieces must be {PIECES_PER_SEAT * n} progresses in -1..56: {pieces!r}")
    left = tuple(d["left"])
    if len(set(left)) != len(left) or not all(type(s) is int and 0 <= s < n for s in left):
        raise InvalidStateError(f"bad list of seats that left: {left!r}")
    turn = d["turn"]
    turn = -1 if turn is None else turn
    winner = d.get("winner")
    winner = -1 if winner is None else winner
    die, sixes, k = d["die"], d["sixes"], d["chance_count"]
    if not (type(die) is int and 0 <= die <= 6 and type(sixes) is int and 0 <= sixes <= 2):
        raise InvalidStateError(f"bad die {die!r} or sixes {sixes!r}")
    if type(k) is not int or k < 0:
        raise InvalidStateError(f"bad chance count {k!r}")
    auto = d["autoplay_forced"]
    if not isinstance(auto, bool):
        raise InvalidStateError(f"bad autoplay_forced {auto!r}")
    if phase == "over":
        if not 0 <= winner < n or d["reason"] not in ("finished", "last_player_standing"):
            raise InvalidStateError("a finished match needs a winner and a reason")
    elif phase != "start" and not (type(turn) is int and 0 <= turn < n and turn not in left):
        raise InvalidStateError(f"bad seat to move {turn!r}")
    state = make(n, phase, turn, die, sixes, pieces, left, winner, d.get("reason") or "", k, auto)
    if phase == "move" and not state.legal:
        raise InvalidStateError("a seat to move a piece must have a legal move")
    return state
