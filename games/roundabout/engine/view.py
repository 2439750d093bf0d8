"""Roundabout views (the whole public position), move labels, dump and load.

Roundabout hides nothing: every view holds the same facts, only ``viewer``
differs. The view carries the state's dump under "state", so a computer
player rebuilds the exact state from it (``from_view``).
"""

from __future__ import annotations

from games.engine.base import CHANCE, InvalidStateError

from .board import (
    COLOUR_NAMES,
    CW,
    SEAT_TERRITORIES,
    SPACES,
    TERRITORY,
    bar_of,
    darts_per_seat,
    ring_of,
)
from .moves import DIRECTION_NAMES
from .state import IN, OUT, PHASES, RING, RoundaboutState, block_spaces, make, occupancy, path_of

VIEW_PHASE = {
    "rolloff": "chance",
    "dice": "chance",
    "roll": "roll",
    "move": "move",
    "offer": "offer",
    "over": "over",
}


def place(s: int) -> str:
    """'ring 3, bar 5' for space ``s``."""
    return f"ring {ring_of(s)}, bar {bar_of(s)}"


def describe_move(state: RoundaboutState, move, names=COLOUR_NAMES) -> dict:
    """A legal move as a dict for buttons: ``move`` (notation), ``kind``,
    ``label`` (short English) and, for dart moves, ``dart``, ``die``,
    ``direction`` ("ring", "in", "out"), ``from`` / ``to`` (spaces 0..79),
    ``jump`` (passes over a block), ``home`` (the dart leaves the board at
    home); for reversals ``dart``; for offers ``seats`` (in order) and
    ``colours``."""
    kind = move.kind
    players = state.players
    colours = SEAT_TERRITORIES[players]
    out = {"move": str(move), "kind": kind}
    if kind == "dart":
        n = darts_per_seat(players)
        idx = state.mover * n + move.dart
        s = state.pos[idx]
        d = "rio".index(move.direction)
        path = path_of(s, state.face[idx], d, move.die)
        occ = occupancy(state.pos, n)
        blk = block_spaces(occ)
        jump = any(occ[t] not in (-1, state.mover) and blk[t] for t in path[:-1])
        land = path[-1]
        home = colours[state.mover]
        circuit = state.circuit[idx] or any(TERRITORY[t] == (home + 2) % 4 for t in path)
        if circuit and d == RING and TERRITORY[land] != home and any(TERRITORY[t] == home for t in path):
            circuit = False
        goes_home = circuit and TERRITORY[land] == home
        way = {RING: "around the ring", IN: "inward", OUT: "outward"}[d]
        short = f"{move.die} {way} to {place(land)}"
        if goes_home:
            short += ", home and off the board"
        if jump:
            short += " (jumping a block)"
        out.update(
            label=f"Dart {move.dart}: {short}", short=short, dart=move.dart, die=move.die,
            direction=DIRECTION_NAMES[move.direction], **{"from": s, "to": land}, jump=jump, home=goes_home,
            from_place=place(s), facing="clockwise" if state.face[idx] == CW else "counter-clockwise",
        )  # fmt: skip
        return out
    if kind == "reverse":
        idx = state.mover * darts_per_seat(players) + move.dart
        facing = "counter-clockwise" if state.face[idx] == CW else "clockwise"
        out.update(
            label=f"Turn dart {move.dart} ({place(state.pos[idx])}) to face {facing}",
            dart=move.dart,
            from_place=place(state.pos[idx]),
        )
        return out
    if kind == "offer":
        names_in_order = [names[colours[s]] for s in move.seats]
        out.update(
            label="Offer the roll to " + ", then ".join(c.capitalize() for c in names_in_order),
            seats=list(move.seats),
            colours=names_in_order,
        )
        return out
    labels = {
        "roll": "Roll the dice",
        "accept": "Accept the offered roll",
        "decline": "Decline the offered roll",
        "pass": "End the turn (pass)",
    }
    out["label"] = labels.get(kind, str(move))
    return out


def view(rules, state: RoundaboutState, seat: int | None) -> dict:
    """The JSON-safe view of ``state`` for ``seat`` (None: spectator).

    Shape::

        {"game": "roundabout", "players": 2, "viewer": seat | None,
         "phase": "chance" | "roll" | "move" | "offer" | "over",
         "chance": "rolloff" | "dice" | None,
         "to_move": seat | -1 (CHANCE) | None, "turn": roller | None,
         "mover": seat playing the roll | None,
         "dice": [a, b] | [], "unused": [die values not used yet],
         "jumping": bool, "reversing": bool,      # the dice are such doubles
         "reversed": [darts turned this turn], "offered": bool,
         "offers": [seats still to answer, the first to move],
         "rolloff": {"seats": [...], "rolls": [...]} | None,
         "die": None,                              # (single-die games only)
         "chance_count": k, "idle": turns without a dart moving,
         "seats": [{"seat": 0, "colour": "red", "colour_index": 0, "territory": 0,
                    "status": "playing" | "left" | "done",
                    "home": None, "removed": darts off the board, "on_board": n, "turns": t,
                    "darts": [{"dart": 0, "space": 0..79 | None, "ring": 1..5 | None,
                               "bar": 0..15 | None, "facing": "cw" | "ccw",
                               "captured": bool, "circuit": bool, "block": bool}, ...]},
                   ...],
         "left": [...], "moves": [describe_move(...) for the seat to move],
         "forced": None, "outcome": None | {"ranks", "reason"}, "winner": seat | None,
         "state": dump(state), "private": {}}

    Raises ``ValueError`` for a seat out of range.
    """
    if seat is not None and (type(seat) is not int or not 0 <= seat < state.players):
        raise ValueError(f"seat {seat!r} is not a seat of this {state.players}-player match")
    players = state.players
    n = darts_per_seat(players)
    statuses = rules.seat_status(state)
    occ = occupancy(state.pos, n)
    blk = block_spaces(occ)
    seats = []
    for s in range(players):
        t = SEAT_TERRITORIES[players][s]
        darts = []
        for i in range(n):
            idx = s * n + i
            p = state.pos[idx]
            darts.append(
                {
                    "dart": i,
                    "space": p if p >= 0 else None,
                    "ring": ring_of(p) if p >= 0 else None,
                    "bar": bar_of(p) if p >= 0 else None,
                    "facing": "cw" if state.face[idx] == CW else "ccw",
                    "captured": state.captured[idx],
                    "circuit": state.circuit[idx],
                    "block": p >= 0 and blk[p],
                }
            )
        on_board = sum(1 for d in darts if d["space"] is not None)
        seats.append(
            {
                "seat": s,
                "colour": COLOUR_NAMES[t],
                "colour_index": t,
                "territory": t,
                "status": statuses[s],
                "home": None,
                "removed": 0 if s in state.left else n - on_board,
                "on_board": on_board,
                "turns": state.turns[s],
                "darts": darts,
            }
        )
    moves = [describe_move(state, m) for m in state.legal] if state.actor not in (None, CHANCE) else []
    outcome = rules.outcome(state)
    dice = list(state.dice)
    return {
        "game": "roundabout",
        "players": players,
        "viewer": seat,
        "phase": VIEW_PHASE[state.phase],
        "chance": state.phase if state.phase in ("rolloff", "dice") else None,
        "to_move": state.actor,
        "turn": state.turn if state.turn >= 0 else None,
        "mover": state.mover if state.mover >= 0 else None,
        "dice": dice,
        "unused": list(state.unused),
        "jumping": bool(dice) and dice[0] == dice[1] and dice[0] % 2 == 0,
        "reversing": bool(dice) and dice[0] == dice[1] and dice[0] % 2 == 1,
        "reversed": list(state.reversed),
        "offered": state.offered,
        "offers": list(state.offers),
        "rolloff": {"seats": list(state.rolloff), "rolls": list(state.rolls)} if state.rolloff else None,
        "die": None,
        "chance_count": state.chance_count,
        "idle": state.idle,
        "seats": seats,
        "left": list(state.left),
        "moves": moves,
        "forced": None,
        "outcome": None if outcome is None else outcome.to_dict(),
        "winner": state.winner if state.winner >= 0 else None,
        "state": dump(state),
        # Secrets of the viewer's own seat would go here; Roundabout has none.
        "private": {},
    }


def from_view(v: dict) -> RoundaboutState:
    """The state a view was made from. Raises ``InvalidStateError``."""
    try:
        return load(v["state"])
    except (KeyError, TypeError) as e:
        raise InvalidStateError(f"not a Roundabout view: {e!r}") from None


def dump(state: RoundaboutState) -> dict:
    """JSON-safe dict of the state: ``{"game": "roundabout", "players",
    "phase", "turn", "mover" (seats or None), "dice", "unused", "reversed",
    "offered", "offers", "darts": per seat a list of [space or None, "cw" |
    "ccw", circuit, captured], "back": per seat spaces before the first die
    move (or None), "back_circuit", "moved", "rolloff", "rolls", "turns",
    "idle", "left", "winner", "reason", "chance_count", "turning_moves",
    "capped_reversals"}``; "turning_moves" is written only when false and
    "capped_reversals" only when true, so that a state without them (stored
    before docs/rules.md "Every match ends" ruled turning is not moving, or
    before a reversing double was held to two darts) keeps the older rule
    when loaded."""
    players = state.players
    n = darts_per_seat(players)

    def per_seat(values, f):
        return [[f(values[s * n + i]) for i in range(n)] for s in range(players)]

    darts = [
        [
            [
                state.pos[s * n + i] if state.pos[s * n + i] >= 0 else None,
                "cw" if state.face[s * n + i] == CW else "ccw",
                state.circuit[s * n + i],
                state.captured[s * n + i],
            ]
            for i in range(n)
        ]
        for s in range(players)
    ]
    return {
        "game": "roundabout",
        "players": players,
        "phase": state.phase,
        "turn": state.turn if state.turn >= 0 else None,
        "mover": state.mover if state.mover >= 0 else None,
        "dice": list(state.dice),
        "unused": list(state.unused),
        "reversed": list(state.reversed),
        "offered": state.offered,
        "offers": list(state.offers),
        "darts": darts,
        "back": per_seat(state.back, lambda p: p if p >= 0 else None) if state.back else None,
        "back_circuit": per_seat(state.back_circuit, bool) if state.back else None,
        "moved": state.moved,
        "rolloff": list(state.rolloff),
        "rolls": list(state.rolls),
        "turns": list(state.turns),
        "idle": state.idle,
        "left": list(state.left),
        "winner": state.winner if state.winner >= 0 else None,
        "reason": state.reason,
        "chance_count": state.chance_count,
        **({} if state.turning_moves else {"turning_moves": False}),
        **({"capped_reversals": True} if state.capped_reversals else {}),
    }


def _int(x, lo, hi, what):
    if type(x) is not int or not lo <= x <= hi:
        raise InvalidStateError(f"bad {what}: {x!r}")
    return x


def _bool(x, what):
    if type(x) is not bool:
        raise InvalidStateError(f"bad {what}: {x!r}")
    return x


def load(data: dict) -> RoundaboutState:
    """The state ``dump`` wrote, checked. Raises ``InvalidStateError``."""
    try:
        return _load(data)
    except (KeyError, TypeError, AttributeError, ValueError, IndexError) as e:
        if isinstance(e, InvalidStateError):
            raise
        raise InvalidStateError(f"not a Roundabout state: {e!r}") from None


def _load(d: dict) -> RoundaboutState:
    if d.get("game") != "roundabout":
        raise InvalidStateError(f"not a Roundabout state: game {d.get('game')!r}")
    players = d["players"]
    if players not in SEAT_TERRITORIES or type(players) is not int:
        raise InvalidStateError(f"bad player count {players!r}")
    n = darts_per_seat(players)
    phase = d["phase"]
    if phase not in PHASES:
        raise InvalidStateError(f"bad phase {phase!r}")
    darts = d["darts"]
    if len(darts) != players or any(len(row) != n for row in darts):
        raise InvalidStateError(f"darts must be {players} lists of {n}")
    pos, face, circuit, captured = [], [], [], []
    for row in darts:
        for space, facing, circ, capt in row:
            pos.append(-1 if space is None else _int(space, 0, SPACES - 1, "space"))
            if facing not in ("cw", "ccw"):
                raise InvalidStateError(f"bad facing {facing!r}")
            face.append(1 if facing == "cw" else -1)
            circuit.append(_bool(circ, "circuit"))
            captured.append(_bool(capt, "captured"))
    on_board = [p for p in pos if p >= 0]
    if len(set(on_board)) != len(on_board):
        raise InvalidStateError("two darts share a space")
    left = tuple(_int(s, 0, players - 1, "seat that left") for s in d["left"])
    if len(set(left)) != len(left):
        raise InvalidStateError(f"bad list of seats that left: {left!r}")

    def seat_or_none(x, what):
        return -1 if x is None else _int(x, 0, players - 1, what)

    turn = seat_or_none(d["turn"], "turn")
    mover = seat_or_none(d["mover"], "mover")
    dice = tuple(_int(v, 1, 6, "die") for v in d["dice"])
    unused = tuple(_int(v, 1, 6, "die") for v in d["unused"])
    if len(dice) not in (0, 2) or len(unused) > len(dice) or any(v not in dice for v in unused):
        raise InvalidStateError(f"bad dice {dice!r} / unused {unused!r}")
    reversed_ = tuple(_int(v, 0, n - 1, "reversed dart") for v in d["reversed"])
    offers = tuple(_int(v, 0, players - 1, "offered seat") for v in d["offers"])
    back, back_circuit = (), ()
    if d["back"] is not None:
        back = tuple(-1 if p is None else _int(p, 0, SPACES - 1, "space") for row in d["back"] for p in row)
        back_circuit = tuple(_bool(c, "circuit") for row in d["back_circuit"] for c in row)
        if len(back) != players * n or len(back_circuit) != players * n:
            raise InvalidStateError("bad take-back position")
    rolloff = tuple(_int(v, 0, players - 1, "roll-off seat") for v in d["rolloff"])
    rolls = tuple(_int(v, 1, 6, "roll-off die") for v in d["rolls"])
    turns = tuple(_int(v, 0, 10**6, "turn count") for v in d["turns"])
    if len(turns) != players or len(rolls) > len(rolloff):
        raise InvalidStateError("bad turn counts or roll-off")
    idle = _int(d["idle"], 0, 10**6, "idle count")
    winner = seat_or_none(d["winner"], "winner")
    reason = d["reason"]
    k = _int(d["chance_count"], 0, 10**9, "chance count")
    moved = _bool(d["moved"], "moved")
    turning_moves = _bool(d.get("turning_moves", True), "turning_moves")
    capped_reversals = _bool(d.get("capped_reversals", False), "capped_reversals")
    offered = _bool(d["offered"], "offered")
    if phase == "over":
        if reason not in ("finished", "last_player_standing", "stalled", "turn_limit"):
            raise InvalidStateError(f"a finished match needs a reason, not {reason!r}")
    elif phase == "rolloff":
        if not rolloff:
            raise InvalidStateError("a roll-off needs its seats")
    elif turn < 0 or turn in left:
        raise InvalidStateError(f"bad seat to roll {turn!r}")
    if phase == "move" and (mover < 0 or not dice):
        raise InvalidStateError("a move phase needs a mover and dice")
    if phase == "offer" and not offers:
        raise InvalidStateError("an offer phase needs offered seats")
    state = make(
        players, phase, turn, mover, dice, unused, reversed_, offered, offers, tuple(pos), tuple(face),
        tuple(circuit), tuple(captured), back, back_circuit, moved, rolloff, rolls, turns, idle, left, winner,
        reason, k, turning_moves, capped_reversals,
    )  # fmt: skip
    if phase == "move" and not state.legal:
        raise InvalidStateError("a seat to move must have a choice")
    return state
