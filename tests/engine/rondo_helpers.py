"""Helpers for Rondo engine tests: small boards of our own, positions built
from a few facts, and the invariants every Rondo state keeps."""

from __future__ import annotations

import json
import random

from games.engine import CHANCE, get_rules
from games.rondo.engine import COLOURS, TILES_PER_COLOUR, RondoRules
from games.rondo.engine.state import down_colour, down_owner

RONDO = get_rules("rondo")


def small_board(spaces, edges, gray=()) -> dict:
    """A board in the rondo-board.json shape. ``spaces``: (id, colour, value);
    ``edges``: (a, b, "ring" | "radial"), "C" is the centre; ``gray``: ids."""
    return {
        "colors": list(COLOURS),
        "center": {"id": "C", "x": 0, "y": 0, "playable": False, "counts_as_occupied": True},
        "edges": [{"a": a, "b": b, "kind": k} for a, b, k in edges],
        "gray": list(gray),
        "sides": {
            "blue": {
                "spaces": [
                    {"id": sid, "color": colour, "value": value, "gray": sid in gray, "x": float(n), "y": 0.0}
                    for n, (sid, colour, value) in enumerate(spaces)
                ]
            }
        },
    }


def position(
    rules,
    racks,
    *,
    turn=0,
    starter=0,
    tiles=None,
    face_down=None,
    scores=None,
    bag=None,
    phase="turn",
    ending=False,
    left=(),
    chance_count=10,
    options=None,
):
    """A state in which ``turn`` is to move. ``racks``: per seat a list of
    colour names; ``tiles``: {space: face-up count}; ``face_down``: {space:
    (colour, owner)}; ``bag``: {colour: n} (default: the rest of the 120)."""
    board = rules.board((options or {}).get("side", rules.default_options["side"]))
    racks = [{c: list(r).count(c) for c in COLOURS} for r in racks]
    tiles = dict(tiles or {})
    face_down = {k: list(v) for k, v in (face_down or {}).items()}
    if bag is None:
        used = dict.fromkeys(COLOURS, 0)
        for r in racks:
            for c, n in r.items():
                used[c] += n
        for sid, n in tiles.items():
            used[COLOURS[board.colour[board.index[sid]]]] += n
        for colour, _ in face_down.values():
            used[colour] += 1
        bag = {c: TILES_PER_COLOUR - used[c] for c in COLOURS}
    data = {
        "game": "rondo",
        "players": len(racks),
        "phase": phase,
        "turn": turn,
        "starter": starter,
        "pending": 0,
        "bag": bag,
        "racks": racks,
        "tiles": tiles,
        "face_down": face_down,
        "scores": list(scores or [0] * len(racks)),
        "chain": [],
        "chain_edge": None,
        "chain_changed": False,
        "ending": ending,
        "left": list(left),
        "reason": "",
        "chance_count": chance_count,
        "options": {"side": board.side, "one_change": True, **(options or {})},
    }
    return rules.load(data)


def run(rules, state, *moves):
    """Play ``moves`` (notation) in order."""
    for m in moves:
        state = rules.play(state, m)
    return state


def tile_total(state) -> list[int]:
    """Per colour: tiles in the bag, on the racks and on the board."""
    b = state.board
    totals = list(state.bag)
    for rack in state.racks:
        for c in range(5):
            totals[c] += rack[c]
    for i, v in enumerate(state.cells):
        if v > 0:
            totals[b.colour[i]] += v
        elif v < 0:
            totals[down_colour(v)] += 1
    return totals


def check_rondo_invariants(state, rules=RONDO, rng=None) -> None:
    """What every Rondo state keeps, checked after every ply: tiles conserved
    (bag + racks + board = 120, 24 per colour), racks of at most 5, a seat
    named to move has a move, and no view holds another seat's secrets: racks
    and face-down colours stay out of the public part until the end, and a
    viewer's view is the same whatever the tiles it cannot see are (the state
    re-dealt consistently with that view gives the very same view; checked
    for one viewer per call, drawn with ``rng``)."""
    rng = rng or random.Random(state.k * 31 + len(state.chain) + state.turn)
    assert tile_total(state) == [TILES_PER_COLOUR] * 5, "tiles are conserved"
    assert all(sum(r) <= 5 for r in state.racks), "a rack holds at most 5 tiles"
    who = rules.to_move(state)
    legal = rules.legal_moves(state)
    assert (who is None) == (legal == [])
    assert (who is None) == (rules.outcome(state) is not None)
    if who == CHANCE:
        outs = rules.chance_outcomes(state)
        assert outs and all(type(w) is int and w > 0 for _, w in outs)
        assert [str(m) for m, _ in outs] == sorted((str(m) for m, _ in outs), key=_chance_order)
    elif who is not None:
        assert who not in state.left
    data = rules.dump(state)
    assert rules.load(json.loads(json.dumps(data))) == state
    over = who is None
    spectator = rules.view(state, None)
    assert spectator["private"] == {}
    # Re-dealing is the costly part: do it for one viewer per check, drawn by rng.
    redeal = rng.choice([None, *range(state.players)])
    for viewer in [None, *range(state.players)]:
        view = spectator if viewer is None else rules.view(state, viewer)
        for seat_row in view["seats"]:
            assert (seat_row["rack"] is not None) == over, "racks are public only once over"
        for sid, tile in view["tiles"].items():
            if tile["face_down"]:
                assert (tile["tile_colour"] is not None) == over, f"face-down colour on {sid} shown"
        if viewer is not None:
            mine = view["private"]
            assert mine["rack"] == [COLOURS[c] for c in range(5) for _ in range(state.racks[viewer][c])]
            own = {
                state.board.ids[i]: COLOURS[down_colour(v)]
                for i, v in enumerate(state.cells)
                if v < 0 and down_owner(v) == viewer
            }
            assert mine["face_down"] == own
        if viewer != redeal:
            continue
        resampled = rules.sample_state(json.loads(json.dumps(view)), viewer, rng)
        assert tile_total(resampled) == [TILES_PER_COLOUR] * 5
        assert rules.view(resampled, viewer) == view, "the view depends on tiles its viewer cannot see"


def _chance_order(text: str):
    if text.startswith("tile "):
        return COLOURS.index(text[5:])
    return int(text[1:])


__all__ = ["RONDO", "RondoRules", "check_rondo_invariants", "position", "run", "small_board", "tile_total"]
