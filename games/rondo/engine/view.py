"""Rondo views (what a seat or spectator sees), move labels, dump, load and
sampling a state behind a view.

docs/rules.md "Hidden information". Until the match ends, a rack's tiles, the
colour of every tile its owner drew and the colour of every face-down tile
are known only to their owner: everything outside ``view["private"]`` is the
same for every viewer and shows rack sizes, the number of tiles in the bag
and face-down tiles without colour. Once the match is over, the public part
shows every rack and every face-down tile.
"""

from __future__ import annotations

from games.engine.base import CHANCE, InvalidStateError

from .board import EDGE_KINDS, EDGE_NAMES
from .moves import COLOUR_INDEX, COLOURS, MAX_RACK
from .state import PHASES, TILES_PER_COLOUR, RondoState, down_code, down_colour, down_owner

VIEW_PHASE = {"start": "chance", "deal": "chance", "draw": "chance", "turn": "turn", "over": "over"}


def rack_list(rack) -> list[str]:
    """A rack's tiles as colour names, in colour order."""
    return [COLOURS[c] for c in range(5) for _ in range(rack[c])]


def describe_move(rules, state: RondoState, move) -> dict:
    """A move of the seat to move as a dict for its controls: ``move``
    (notation), ``label`` (short English), and for placements ``space``,
    ``count`` (face-up tiles, 0 = one face down), ``colour`` (of the tiles),
    ``face_down``, ``points`` (what it scores). Only ever shown to that seat."""
    text = str(move)
    if move.kind == "end":
        return {"move": text, "label": "End the chain and draw 1 tile"}
    if move.kind == "draw":
        n = 1 if sum(state.racks[state.turn]) == MAX_RACK - 1 else 2
        return {"move": text, "label": f"Draw {n} tile{'s' if n > 1 else ''} instead of placing"}
    if move.kind != "place":
        return {"move": text, "label": text}
    b = state.board
    i = b.index[move.space]
    where = f"{COLOURS[b.colour[i]]} {b.value[i]}, {move.space}"  # as the board shows it, and its code
    if move.count:
        c = b.colour[i]
        points = move.count * b.value[i]
        label = f"{move.count} {COLOURS[c]} face up on {where} ({points} point{'s' if points != 1 else ''})"
    else:
        c = move.colour
        points = 0
        label = f"1 {COLOURS[c]} face down on {where} (a bridge, 0 points)"
    return {
        "move": text,
        "label": label,
        "space": move.space,
        "count": move.count,
        "colour": COLOURS[c],
        "face_down": not move.count,
        "points": points,
    }


def view(rules, state: RondoState, seat: int | None) -> dict:
    """The JSON-safe view of ``state`` for ``seat`` (None: spectator).

    Shape::

        {"game": "rondo", "players": 2, "viewer": 0 | None,
         "side": "blue", "one_change": True,
         "phase": "chance" | "turn" | "over",
         "chance": "start" | "deal" | "draw" | None,   # what the chance step draws
         "to_move": seat | -1 (CHANCE) | None, "turn": seat | None,
         "starter": seat | None, "pending": tiles still to draw,
         "chance_count": k, "bag": tiles in the bag, "ending": bool,
         "seats": [{"seat": 0, "colour": "red", "status": "playing" | "left" | "done",
                    "score": 0, "rack_size": 2, "home": None,
                    "rack": None | ["green", ...]}, ...],    # rack: only once over
         "tiles": {"I03": {"tiles": 1..5, "face_down": bool, "owner": seat | None,
                           "tile_colour": "purple" | None}, ...},  # occupied spaces only;
                  # a face-down tile's colour is None until over (owner: who placed it)
         "chain": ["I03", ...], "chain_points": n, "chain_edge": None | "ring" | "radial",
         "chain_changed": bool, "candidates": [space ids the next placement may go on],
         "draw_count": tiles option B would draw for the seat to move (0: not allowed),
         "left": [seats in the order they left],
         "moves": [],         # legal moves show what a rack holds: see private
         "forced": None,
         "outcome": None | {"ranks": [...], "reason": str},
         "private": {} for a spectator, else
                    {"rack": ["green", "green", "red"], "rack_counts": {"yellow": 0, ...},
                     "face_down": {"I03": "red", ...},     # this seat's own face-down tiles
                     "moves": [describe_move(...), ...]}} # its legal moves when it is to move

    Raises ``ValueError`` for a seat out of range.
    """
    if seat is not None and (type(seat) is not int or not 0 <= seat < state.players):
        raise ValueError(f"seat {seat!r} is not a seat of this {state.players}-player match")
    b = state.board
    over = state.phase == "over"
    statuses = rules.seat_status(state)
    seats = []
    for s in range(state.players):
        rack = state.racks[s]
        seats.append(
            {
                "seat": s,
                "colour": rules.seat_colours[s],
                "status": statuses[s],
                "score": state.scores[s],
                "rack_size": sum(rack),
                "home": None,
                "rack": rack_list(rack) if over else None,
            }
        )
    tiles = {}
    for i, v in enumerate(state.cells):
        if v > 0:
            tiles[b.ids[i]] = {
                "tiles": v,
                "face_down": False,
                "owner": None,
                "tile_colour": COLOURS[b.colour[i]],
            }
        elif v < 0:
            tiles[b.ids[i]] = {
                "tiles": 1,
                "face_down": True,
                "owner": down_owner(v),
                "tile_colour": COLOURS[down_colour(v)] if over else None,
            }
    chain_points = 0
    for i in state.chain:
        if state.cells[i] > 0:
            chain_points += state.cells[i] * b.value[i]
    turn = state.phase == "turn"
    rack_size = sum(state.racks[state.turn]) if turn else 0
    draw_count = 0
    if turn and not state.chain and rack_size < MAX_RACK:
        draw_count = min(1 if rack_size == MAX_RACK - 1 else 2, sum(state.bag))
    outcome = rules.outcome(state)
    private: dict = {}
    if seat is not None:
        rack = state.racks[seat]
        mine = {}
        for i, v in enumerate(state.cells):
            if v < 0 and down_owner(v) == seat:
                mine[b.ids[i]] = COLOURS[down_colour(v)]
        private = {
            "rack": rack_list(rack),
            "rack_counts": {COLOURS[c]: rack[c] for c in range(5)},
            "face_down": mine,
            "moves": [describe_move(rules, state, m) for m in rules.legal_moves(state)]
            if turn and state.turn == seat
            else [],
        }
    return {
        "game": "rondo",
        "players": state.players,
        "viewer": seat,
        "side": b.side,
        "one_change": state.one_change,
        "phase": VIEW_PHASE[state.phase],
        "chance": state.phase if VIEW_PHASE[state.phase] == "chance" else None,
        "to_move": rules.to_move(state),
        "turn": state.turn if state.turn >= 0 else None,
        "starter": state.starter if state.starter >= 0 else None,
        "pending": state.pending,
        "chance_count": state.k,
        "bag": sum(state.bag),
        "ending": state.ending,
        "seats": seats,
        "tiles": tiles,
        "chain": [b.ids[i] for i in state.chain],
        "chain_points": chain_points,
        "chain_edge": EDGE_NAMES[state.chain_kind],
        "chain_changed": state.changed,
        "candidates": rules.candidates(state),
        "draw_count": draw_count,
        "left": list(state.left),
        "moves": [],
        "forced": None,
        "outcome": None if outcome is None else outcome.to_dict(),
        # Secrets of the viewer's own seat go here and only here (see
        # Rules.view); every other key is the same for every viewer.
        "private": private,
    }


def _check_seat(state: RondoState, seat) -> None:
    if seat is not None and (type(seat) is not int or not 0 <= seat < state.players):
        raise ValueError(f"seat {seat!r} is not a seat of this {state.players}-player match")


def hidden(state: RondoState, seat: int | None) -> frozenset[tuple]:
    """What ``seat`` (None: spectator) may not know of ``state`` (see
    ``Rules.hidden``); docs/rules.md "Hidden information". Until the match
    ends, as facts:

    - ``("rack", s, ("red", "red", "green"))``: the tiles on the rack of every
      other seat ``s`` that holds any (colour order, as ``rack_list``);
    - ``("face_down", "I03", "red")``: the colour of every face-down tile
      another seat placed;
    - ``("bag", (yellow, red, purple, blue, green))``: the bag's tiles by
      colour (counts), while it holds any; nobody knows them.

    Empty once over. Raises ``ValueError`` for a seat out of range."""
    _check_seat(state, seat)
    if state.phase == "over":
        return frozenset()
    facts = set()
    for s, rack in enumerate(state.racks):
        if s != seat and sum(rack):
            facts.add(("rack", s, tuple(rack_list(rack))))
    b = state.board
    for i, v in enumerate(state.cells):
        if v < 0 and down_owner(v) != seat:
            facts.add(("face_down", b.ids[i], COLOURS[down_colour(v)]))
    if sum(state.bag):
        facts.add(("bag", tuple(state.bag)))
    return frozenset(facts)


def hidden_in_move(state: RondoState, move, seat: int | None) -> frozenset[tuple]:
    """What ``move`` (a parsed ``RondoMove``, played in ``state``) records
    that ``seat`` (None: spectator) may not know (see
    ``Rules.hidden_in_move``): a drawn or dealt tile's colour,
    ``("tile", k, "red")`` (k: its chance step), for all but the seat that
    draws it; a face-down tile's colour, ``("face_down", "I03", "red")``, for
    all but the seat that places it. docs/rules.md "Hidden information".
    Raises ``ValueError`` for a seat out of range."""
    _check_seat(state, seat)
    if move.kind == "tile" and state.phase in ("deal", "draw") and state.turn != seat:
        return frozenset({("tile", state.k, COLOURS[move.colour])})
    if move.kind == "place" and not move.count and state.phase == "turn" and state.turn != seat:
        return frozenset({("face_down", move.space, COLOURS[move.colour])})
    return frozenset()


def dump(state: RondoState) -> dict:
    """JSON-safe dict of the state::

        {"game": "rondo", "players", "phase", "turn" (seat or None),
         "starter" (seat or None), "pending", "bag": {colour: n},
         "racks": [{colour: n}, ...], "tiles": {space id: n face up},
         "face_down": {space id: [colour, owner seat]}, "scores": [...],
         "chain": [space ids], "chain_edge": None | "ring" | "radial",
         "chain_changed", "ending", "left", "reason", "chance_count",
         "options": {"side": str, "one_change": bool}}

    The dump holds every secret: it is the server's record, never sent to a
    browser (only views are)."""
    b = state.board
    tiles, down = {}, {}
    for i, v in enumerate(state.cells):
        if v > 0:
            tiles[b.ids[i]] = v
        elif v < 0:
            down[b.ids[i]] = [COLOURS[down_colour(v)], down_owner(v)]
    return {
        "game": "rondo",
        "players": state.players,
        "phase": state.phase,
        "turn": state.turn if state.turn >= 0 else None,
        "starter": state.starter if state.starter >= 0 else None,
        "pending": state.pending,
        "bag": {COLOURS[c]: state.bag[c] for c in range(5)},
        "racks": [{COLOURS[c]: r[c] for c in range(5)} for r in state.racks],
        "tiles": tiles,
        "face_down": down,
        "scores": list(state.scores),
        "chain": [b.ids[i] for i in state.chain],
        "chain_edge": EDGE_NAMES[state.chain_kind],
        "chain_changed": state.changed,
        "ending": state.ending,
        "left": list(state.left),
        "reason": state.reason,
        "chance_count": state.k,
        "options": {"side": b.side, "one_change": state.one_change},
    }


def _counts(d, what) -> tuple[int, ...]:
    if not isinstance(d, dict) or set(d) - set(COLOURS):
        raise InvalidStateError(f"{what} must map colours to counts: {d!r}")
    out = tuple(d.get(c, 0) for c in COLOURS)
    if not all(type(n) is int and n >= 0 for n in out):
        raise InvalidStateError(f"{what} must hold counts >= 0: {d!r}")
    return out


def load(rules, data: dict) -> RondoState:
    """The state ``dump`` wrote, checked (tiles conserved: 24 per colour in
    bag, racks and board). Raises ``InvalidStateError``."""
    try:
        if data.get("game", "rondo") != "rondo":
            raise InvalidStateError(f"not a Rondo state: game {data.get('game')!r}")
        opts = data["options"]
        try:
            board = rules.board(opts["side"])
        except ValueError as e:
            raise InvalidStateError(str(e)) from None
        n = data["players"]
        if n not in rules.player_counts:
            raise InvalidStateError(f"bad player count {n!r}")
        phase = data["phase"]
        if phase not in PHASES:
            raise InvalidStateError(f"bad phase {phase!r}")
        bag = _counts(data["bag"], "bag")
        racks = tuple(_counts(r, "a rack") for r in data["racks"])
        if len(racks) != n or any(sum(r) > MAX_RACK for r in racks):
            raise InvalidStateError(f"{n} racks of at most {MAX_RACK} tiles expected")
        cells = [0] * board.size
        for sid, count in data["tiles"].items():
            i = board.index[sid]
            if type(count) is not int or not 1 <= count <= MAX_RACK:
                raise InvalidStateError(f"bad tile count on {sid}: {count!r}")
            cells[i] = count
        for sid, (colour, owner) in data["face_down"].items():
            i = board.index[sid]
            if cells[i] or type(owner) is not int or not 0 <= owner < n:
                raise InvalidStateError(f"bad face-down tile on {sid}")
            cells[i] = down_code(COLOUR_INDEX[colour], owner)
        totals = list(bag)
        for r in racks:
            for c in range(5):
                totals[c] += r[c]
        for i, v in enumerate(cells):
            if v > 0:
                totals[board.colour[i]] += v
            elif v < 0:
                totals[down_colour(v)] += 1
        if len(set(totals)) != 1:
            raise InvalidStateError(f"tiles are not conserved: per colour {totals}")
        scores = tuple(data["scores"])
        if len(scores) != n or not all(type(x) is int and x >= 0 for x in scores):
            raise InvalidStateError(f"bad scores {scores!r}")
        chain = tuple(board.index[sid] for sid in data["chain"])
        if any(not cells[i] for i in chain):
            raise InvalidStateError("the chain's spaces must be occupied")
        left = tuple(data["left"])
        if len(set(left)) != len(left) or not all(type(s) is int and 0 <= s < n for s in left):
            raise InvalidStateError(f"bad list of seats that left: {left!r}")
        turn = -1 if data["turn"] is None else data["turn"]
        starter = -1 if data["starter"] is None else data["starter"]
        k, pending = data["chance_count"], data["pending"]
        if type(k) is not int or k < 0 or type(pending) is not int or pending < 0:
            raise InvalidStateError(f"bad chance count {k!r} or pending draws {pending!r}")
        if phase not in ("start", "over") and not (type(turn) is int and 0 <= turn < n):
            raise InvalidStateError(f"bad seat to move {turn!r}")
        if phase not in ("start", "over") and not (type(starter) is int and 0 <= starter < n):
            raise InvalidStateError(f"bad starting seat {starter!r}")
        if phase in ("deal", "draw") and not (1 <= pending <= sum(bag)):
            raise InvalidStateError("a draw needs tiles to draw and tiles in the bag")
        if phase == "over" and data["reason"] not in ("finished", "last_player_standing"):
            raise InvalidStateError("a finished match needs a reason")
        for key in ("chain_changed", "ending"):
            if not isinstance(data[key], bool):
                raise InvalidStateError(f"bad {key} {data[key]!r}")
        one_change = opts["one_change"]
        if not isinstance(one_change, bool):
            raise InvalidStateError(f"bad one_change {one_change!r}")
        chain_edge = data["chain_edge"]
        kind = 0 if chain_edge is None else EDGE_KINDS[chain_edge]
        return RondoState(
            board,
            n,
            phase,
            turn,
            starter,
            pending,
            bag,
            racks,
            tuple(cells),
            scores,
            chain,
            kind,
            data["chain_changed"],
            data["ending"],
            left,
            data.get("reason") or "",
            k,
            one_change,
        )
    except (KeyError, TypeError, AttributeError, ValueError) as e:
        if isinstance(e, InvalidStateError):
            raise
        raise InvalidStateError(f"not a Rondo state: {e!r}") from None


def sample(rules, v: dict, seat: int | None, rng) -> RondoState:
    """A full state consistent with view ``v`` seen by ``seat``: the tiles
    that viewer cannot see (other racks, others' face-down tiles, the bag)
    are drawn at random with ``rng`` from the tiles not in sight (24 per
    colour minus the face-up tiles, the viewer's rack and its own face-down
    tiles). Raises ``InvalidStateError`` for a malformed or inconsistent view."""
    try:
        n = v["players"]
        own = v.get("private") or {}
        known_rack = own.get("rack_counts") if seat is not None else None
        own_down = own.get("face_down", {}) if seat is not None else {}
        over = v["phase"] == "over"
        pool = [TILES_PER_COLOUR] * 5
        racks: list = [None] * n
        for s in v["seats"]:
            if s.get("rack") is not None:
                racks[s["seat"]] = [COLOUR_INDEX[c] for c in s["rack"]]
        if seat is not None and known_rack is not None:
            racks[seat] = [COLOUR_INDEX[c] for c in COLOURS for _ in range(known_rack[c])]
        tiles, down, hidden_down = {}, {}, []
        for sid, sp in v["tiles"].items():
            if sp["face_down"]:
                colour = sp["tile_colour"] or own_down.get(sid)
                if colour is None:
                    hidden_down.append((sid, sp["owner"]))
                else:
                    down[sid] = [colour, sp["owner"]]
                    pool[COLOUR_INDEX[colour]] -= 1
            else:
                tiles[sid] = sp["tiles"]
                pool[COLOUR_INDEX[sp["tile_colour"]]] -= sp["tiles"]
        for r in racks:
            for c in r or ():
                pool[c] -= 1
        unknown = [c for c in range(5) for _ in range(pool[c])]
        need = (
            v["bag"] + len(hidden_down) + sum(s["rack_size"] for s in v["seats"] if racks[s["seat"]] is None)
        )
        if min(pool) < 0 or len(unknown) != need:
            raise InvalidStateError("the view's tiles do not add up")
        if rng is not None:
            rng.shuffle(unknown)
        it = iter(unknown)
        for s in v["seats"]:
            if racks[s["seat"]] is None:
                racks[s["seat"]] = [next(it) for _ in range(s["rack_size"])]
        for sid, owner in hidden_down:
            down[sid] = [COLOURS[next(it)], owner]
        bag = [0] * 5
        for c in it:
            bag[c] += 1
        phase = v["phase"]
        if phase == "chance":
            phase = v["chance"]
        elif over:
            phase = "over"
        data = {
            "game": "rondo",
            "players": n,
            "phase": phase,
            "turn": v["turn"],
            "starter": v["starter"],
            "pending": v["pending"],
            "bag": dict(zip(COLOURS, bag, strict=True)),
            "racks": [{COLOURS[c]: r.count(c) for c in range(5)} for r in racks],
            "tiles": tiles,
            "face_down": down,
            "scores": [s["score"] for s in v["seats"]],
            "chain": v["chain"],
            "chain_edge": v["chain_edge"],
            "chain_changed": v["chain_changed"],
            "ending": v["ending"],
            "left": v["left"],
            "reason": (v.get("outcome") or {}).get("reason", ""),
            "chance_count": v["chance_count"],
            "options": {"side": v["side"], "one_change": v["one_change"]},
        }
    except (KeyError, TypeError, AttributeError, ValueError, StopIteration) as e:
        if isinstance(e, InvalidStateError):
            raise
        raise InvalidStateError(f"not a Rondo view: {e!r}") from None
    return load(rules, data)


__all__ = ["CHANCE", "describe_move", "dump", "load", "sample", "view"]
