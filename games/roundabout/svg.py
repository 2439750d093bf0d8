"""Where things are drawn on the Roundabout board: concentric rings crossed by
bars, with the four coloured home territories.

Sources: docs/rules.md "Roundabout" (Board, Territories by seat, Darts, Ringers);
the engine's ``games.roundabout.engine.board`` (rings 1..5, bars 0..15
clockwise, territory t = bars 4t..4t+3).

Units: the SVG viewBox is 0..100 on both axes, centre (50, 50), y downwards.
Ring r (1..5) has radius ``RING_RADIUS[r]``; bar b lies at angle
``-90 + 22.5 * (b + 0.5)`` degrees (bar 0 just clockwise of twelve o'clock),
so clockwise on screen is the engine's clockwise. Territory t is the quarter
from ``-90 + 90 t`` to ``-90 + 90 (t + 1)`` degrees.

Everything static is computed once at import; ``board_context`` only places
the darts and marks of one view.
"""

from __future__ import annotations

import math
from functools import cache

from games.roundabout.engine.board import COLOUR_NAMES, RINGER_RUN
from games.roundabout.engine.view import describe_move
from games.roundabout.words import colour_word, dart_words, seat_words, texts

SIZE = 100
CENTRE = 50.0
RING_RADIUS = (None, 14.0, 21.0, 28.0, 35.0, 42.0)
INNER, OUTER = 9.5, 47.5  # territory wedges and bar lines run between these radii

def bar_angle(bar: float) -> float:
    """Screen angle in degrees of the middle of ``bar`` (may be fractional)."""
    return -90 + 22.5 * (bar + 0.5)


def point(ring_radius: float, angle: float) -> tuple[float, float]:
    """(x, y) at ``ring_radius`` and ``angle`` degrees, rounded for SVG."""
    a = math.radians(angle)
    return round(CENTRE + ring_radius * math.cos(a), 2), round(CENTRE + ring_radius * math.sin(a), 2)


def space_xy(space: int) -> tuple[float, float]:
    """Centre of a space (0..79)."""
    return point(RING_RADIUS[space // 16 + 1], bar_angle(space % 16))


def _arc(r: float, a0: float, a1: float) -> str:
    x0, y0 = point(r, a0)
    x1, y1 = point(r, a1)
    large = 1 if (a1 - a0) % 360 > 180 else 0
    return f"M{x0:g} {y0:g}A{r:g} {r:g} 0 {large} 1 {x1:g} {y1:g}"


def _wedge(t: int) -> str:
    a0, a1 = -90 + 90 * t, -90 + 90 * (t + 1)
    xo0, yo0 = point(OUTER, a0)
    xo1, yo1 = point(OUTER, a1)
    xi1, yi1 = point(INNER, a1)
    xi0, yi0 = point(INNER, a0)
    return (
        f"M{xo0:g} {yo0:g}A{OUTER:g} {OUTER:g} 0 0 1 {xo1:g} {yo1:g}"
        f"L{xi1:g} {yi1:g}A{INNER:g} {INNER:g} 0 0 0 {xi0:g} {yi0:g}Z"
    )


STATIC = {
    "size": SIZE,
    "territories": tuple({"colour": COLOUR_NAMES[t], "d": _wedge(t), "territory": t} for t in range(4)),
    "rings": tuple({"ring": r, "r": RING_RADIUS[r]} for r in range(1, 6)),
    "bars": tuple(
        {
            "bar": b,
            "x1": point(INNER, bar_angle(b))[0],
            "y1": point(INNER, bar_angle(b))[1],
            "x2": point(OUTER, bar_angle(b))[0],
            "y2": point(OUTER, bar_angle(b))[1],
        }
        for b in range(16)
    ),  # fmt: skip
    "spaces": tuple({"space": s, "x": space_xy(s)[0], "y": space_xy(s)[1]} for s in range(80)),
    "labels": tuple(
        {"bar": b, "x": point(OUTER + 1.2, bar_angle(b))[0], "y": point(OUTER + 1.2, bar_angle(b))[1]}
        for b in range(16)
    ),
    "centre": CENTRE,
    "inner": INNER,
}


@cache
def _cached_grid() -> str:
    from django.template.loader import render_to_string
    from django.utils.safestring import mark_safe

    return mark_safe(render_to_string("games/roundabout/board.html#grid", {"board": STATIC}))


def grid_markup() -> str:
    """The static board's SVG markup (``board.html#grid``), rendered once per
    process (each call when ``settings.DEBUG``, so template edits show)."""
    from django.conf import settings

    if settings.DEBUG:
        _cached_grid.cache_clear()
    return _cached_grid()


def dart_rotation(space: int, facing: str) -> float:
    """The angle in degrees a dart on ``space`` facing ``facing`` ("cw" or "ccw") is
    turned by: its arrow points along its ring, the way it faces."""
    return bar_angle(space % 16) + (90 if facing == "cw" else -90)


def _dart_transform(space: int, facing: str) -> str:
    x, y = space_xy(space)
    return f"translate({x:g} {y:g}) rotate({dart_rotation(space, facing):g})"


def _ringer_marks(seat: dict, darts: list[dict], players: int) -> list[dict]:
    """Runs of 2+ of a seat's darts on one ring of its opposite territory,
    as arcs (a ringer needs ``RINGER_RUN[players]`` of them)."""
    opposite = (seat["territory"] + 2) % 4
    by_ring: dict[int, list[int]] = {}
    for d in darts:
        if d["bar"] is not None and d["bar"] // 4 == opposite:
            by_ring.setdefault(d["ring"], []).append(d["bar"])
    marks = []
    for ring, bars in by_ring.items():
        bars.sort()
        run = [bars[0]]
        for b in bars[1:] + [None]:
            if b is not None and b == run[-1] + 1:
                run.append(b)
                continue
            if len(run) >= 2:
                r = RING_RADIUS[ring]
                marks.append({
                    "colour": seat["colour"], "ring": ring, "bars": (run[0], run[-1]), "length": len(run),
                    "needed": RINGER_RUN[players],
                    "d": _arc(r, bar_angle(run[0]), bar_angle(run[-1])),
                })  # fmt: skip
            if b is not None:
                run = [b]
    return marks


def board_context(view: dict) -> dict:
    """What ``games/roundabout/board.html`` draws for an engine view (any
    viewer's: the board uses only what every viewer sees).

    Returns (coordinates in viewBox units 0..100)::

        {"size": 100, "grid": "<svg markup>",      # the static board
         "territories": [{"colour", "d", "territory",
                          "status": "playing" | "done" | "left" | "empty",
                          "turn": bool}, ...],     # 4, territory order
         "darts": [{"seat", "colour", "dart", "space", "ring", "bar",
                    "facing": "cw" | "ccw", "x", "y",
                    "transform": "translate(x y) rotate(deg)",  # the arrow points the way it faces
                    "captured": bool, "block": bool, "circuit": bool}, ...],
         "slots": [{"key": "<seat>-<dart>", "dart": one of darts | None}, ...],  # every dart,
                                                   # off the board too: the board's parts
                                                   # (games.frames.wire) keep their names
         "blocks": [{"colour", "x1", "y1", "x2", "y2"}],  # links between darts of one block
         "ringers": [{"colour", "ring", "bars", "length", "needed", "d"}],  # runs in the opposite territory
         "dice": [a, b] | [], "turn": "red" | None,
         "summary": "Red to play. Red: 8 darts on the board, 2 off; dart 0 on ring 1, bar 1, facing ...",
         "title": "Red to play.",         # the board's name: its title, then each seat's text
         "seat_texts": [{"seat": 0, "text": "Red: 8 darts on the board, 2 off; dart 0 ..."}, ...]}

    Raises ``KeyError`` for a dict that is not a Roundabout view.
    """
    seats = view["seats"]
    turn = view.get("turn")
    mover = view.get("mover")
    over = view.get("phase") == "over"
    territories = [{**t, "status": "empty", "turn": False} for t in STATIC["territories"]]
    slots, blocks, ringers, lines, seat_texts = [], [], [], [], []
    words = texts()
    occupied: dict[int, tuple[int, dict]] = {}
    turn_colour = None
    for seat in seats:
        t = seat["territory"]
        colour = seat["colour"]
        territories[t]["status"] = seat["status"]
        active = mover if mover is not None else turn
        if active == seat["seat"] and not over:
            territories[t]["turn"] = True
            turn_colour = colour
        parts = []
        for d in seat["darts"]:
            s = d["space"]
            key = f"{seat['seat']}-{d['dart']}"
            if s is None:
                slots.append({"key": key, "dart": None})
                continue
            x, y = space_xy(s)
            dart = {
                "seat": seat["seat"], "colour": colour, "dart": d["dart"], "space": s, "ring": d["ring"],
                "bar": d["bar"], "facing": d["facing"], "x": x, "y": y,
                "transform": _dart_transform(s, d["facing"]),
                "captured": d["captured"], "block": d["block"], "circuit": d["circuit"],
            }  # fmt: skip
            slots.append({"key": key, "dart": dart})
            occupied[s] = (seat["seat"], dart)
            parts.append(dart_words(d, words))
        ringers += _ringer_marks(seat, seat["darts"], view["players"])
        lines.append(seat_words(seat, parts, words))
        seat_texts.append({"seat": seat["seat"], "text": lines[-1] + words["stop"]})
    for s, (owner, dart) in occupied.items():
        ring, bar = s // 16 + 1, s % 16
        for other in ((ring - 1) * 16 + (bar + 1) % 16, s + 16 if ring < 5 else None):
            if other is not None and occupied.get(other, (None,))[0] == owner:
                o = occupied[other][1]
                blocks.append(
                    {"colour": dart["colour"], "x1": dart["x"], "y1": dart["y"], "x2": o["x"], "y2": o["y"]}
                )
    summary = words["sep"].join(lines) + words["stop"]
    title = words["board"]
    if turn_colour and not over:
        title = words["to play"] % {"colour": colour_word(turn_colour, words)}
        summary = f"{title} {summary}"
    return {
        **STATIC,
        "grid": grid_markup(),
        "territories": territories,
        "darts": [s["dart"] for s in slots if s["dart"]],
        "slots": slots,
        "blocks": blocks,
        "ringers": ringers,
        "dice": list(view.get("dice") or []),
        "turn": turn_colour,
        "summary": summary,
        "title": title,
        "seat_texts": seat_texts,
    }


def is_board_move(notation: str) -> bool:
    """A dart move ("3r5", "3i2", "3o4") or a turn ("rev 3"; games.marks)."""
    return (len(notation) == 3 and notation[1] in "rio") or notation[:4] == "rev "


def last_move(rules, before, notations: list[str], after) -> dict | None:
    """The marks of a turn's dart moves and turns ``notations`` played from state
    ``before`` (games.marks documents the shape; viewBox units): each move's path,
    a dart that went home, and the darts the turn captured (docs/rules.md
    "Captures": judged on the position after the turn, here ``after``)."""
    marks = {"paths": [], "from": [], "to": [], "capture": [], "home": []}
    state = before
    for text in notations:
        move = rules.parse_move(text)
        d = describe_move(state, move)
        if move.kind == "dart":
            fx, fy = space_xy(d["from"])
            tx, ty = space_xy(d["to"])
            marks["paths"].append({"x1": fx, "y1": fy, "x2": tx, "y2": ty})
            marks["from"].append({"x": fx, "y": fy, "r": 2.6})
            marks["to"].append({"x": tx, "y": ty, "r": 3.2})
            if d["home"]:
                marks["home"].append({"x": tx, "y": ty, "r": 4.2})
        elif move.kind == "reverse":
            n = len(state.pos) // state.players
            x, y = space_xy(state.pos[state.mover * n + move.dart])
            marks["to"].append({"x": x, "y": y, "r": 3.2})
        state = rules.play(state, move)
    for i, (was, now) in enumerate(zip(before.captured, after.captured, strict=True)):
        if now and not was and after.pos[i] >= 0:
            x, y = space_xy(after.pos[i])
            marks["capture"].append({"x": x, "y": y, "r": 4.0})
    return marks if marks["to"] else None
