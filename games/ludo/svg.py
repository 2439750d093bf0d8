"""Where things are drawn on the classic cross-shaped Ludo board.

Sources: the Ludo rule text, rules 1-5; docs/rules.md "Ludo" (Board, Seats, Progress);
the engine's ``games.ludo.engine.board`` (cells 0..51, starts 13*c, stars
13*c + 8, progress 0..50 ring, 51..55 home lane, 56 home).

Units: the board is a 15 x 15 grid; one grid unit is one cell. A cell is named
by the grid square ``(x, y)`` of its top-left corner (column, row; y grows
downwards, as in SVG), so its centre is ``(x + 0.5, y + 0.5)``. Piece positions
are centres in grid units.

Layout (colour c = 0 red, 1 green, 2 yellow, 3 blue): the bases are the 6 x 6
corner quadrants, red top-left, then clockwise (green top-right, yellow bottom-
right, blue bottom-left). The ring runs clockwise on screen along the outer
cells of the cross's arms; colour c's start cell 13*c is the cell of the arm
just beside its base, and its home lane is the middle row/column of the arm
that leads from the cell before that start towards the centre (3 x 3, ``HOME``).
Everything is computed for red and rotated a quarter turn clockwise per colour.

Everything static is computed once at import; ``board_context`` only places the
pieces of one view.
"""

from __future__ import annotations

from functools import cache

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.frames.wire import part
from games.ludo.engine.board import (
    COLOUR_NAMES,
    HOME,
    LANE_FIRST,
    PIECES_PER_SEAT,
    RING_CELLS,
    SAFE_CELLS,
    SEAT_COLOURS,
    STAR_CELLS,
    START_CELLS,
)
from games.ludo.engine.view import describe_move

GRID = 15  # grid units per side

#: Red's 13 ring cells, cells 0..12 (start cell first), as grid squares. The
#: other colours' stretches are these turned a quarter turn clockwise per colour.
_RED_STRETCH = (
    (1, 6), (2, 6), (3, 6), (4, 6), (5, 6),  # left arm, top row, towards the centre
    (6, 5), (6, 4), (6, 3), (6, 2), (6, 1), (6, 0),  # top arm, left column, upwards
    (7, 0),  # top arm's end
    (8, 0),  # top arm, right column (continues in green's stretch)
)  # fmt: skip
_RED_LANE = ((1, 7), (2, 7), (3, 7), (4, 7), (5, 7))  # progress 51..55
_RED_BASE = (0, 0)  # top-left grid square of the 6 x 6 base
_RED_BASE_SLOTS = ((2.0, 2.0), (4.0, 2.0), (2.0, 4.0), (4.0, 4.0))  # piece 0..3 centres
#: Centres for pieces 0..3 at home, inside red's triangle of the centre square
#: (the triangle with corners (6, 6), (6, 9), (7.5, 7.5)).
_RED_HOME_SLOTS = ((6.33, 6.85), (6.33, 8.15), (6.33, 7.5), (6.9, 7.5))


def _turn_square(x: int, y: int, quarters: int) -> tuple[int, int]:
    """Grid square (x, y) turned ``quarters`` quarter turns clockwise about the centre."""
    for _turn in range(quarters):
        x, y = GRID - 1 - y, x
    return x, y


def _turn_point(x: float, y: float, quarters: int) -> tuple[float, float]:
    """Point (x, y) in grid units turned ``quarters`` quarter turns clockwise about the centre."""
    for _turn in range(quarters):
        x, y = GRID - y, x
    return round(x, 2), round(y, 2)


#: RING[cell] for cell 0..51: the grid square (x, y) of that ring cell.
RING = tuple(_turn_square(x, y, c) for c in range(4) for (x, y) in _RED_STRETCH)
#: LANES[c][k]: grid square of colour c's home lane cell k (progress 51 + k).
LANES = tuple(tuple(_turn_square(x, y, c) for (x, y) in _RED_LANE) for c in range(4))
#: BASES[c]: top-left grid square of colour c's 6 x 6 base quadrant.
BASES = tuple(
    (min(x for x, _ in corners), min(y for _, y in corners))
    for corners in ([_turn_square(_RED_BASE[0] + dx, _RED_BASE[1] + dy, c) for dx in (0, 5) for dy in (0, 5)]
                    for c in range(4))
)  # fmt: skip
#: BASE_SLOTS[c][i]: centre of piece i's slot in colour c's base; in every base
#: pieces 0..3 read left to right, top to bottom.
BASE_SLOTS = tuple(tuple((bx + x, by + y) for (x, y) in _RED_BASE_SLOTS) for (bx, by) in BASES)
#: HOME_SLOTS[c][i]: centre of piece i of colour c once home (centre square).
HOME_SLOTS = tuple(tuple(_turn_point(x, y, c) for (x, y) in _RED_HOME_SLOTS) for c in range(4))
#: The centre square (home) as its top-left grid square and size.
CENTRE = (6, 6, 3)
#: HOME_TRIANGLES[c]: SVG points of colour c's triangle of the centre square.
HOME_TRIANGLES = tuple(
    " ".join(f"{x:g},{y:g}" for x, y in (_turn_point(6, 6, c), _turn_point(6, 9, c), (7.5, 7.5)))
    for c in range(4)
)
_HOME = tuple({"colour": COLOUR_NAMES[c], "points": HOME_TRIANGLES[c]} for c in range(4))


def _cells() -> tuple[dict, ...]:
    cells = []
    for cell, (x, y) in enumerate(RING):
        if cell in START_CELLS:
            kind, colour = "start", COLOUR_NAMES[START_CELLS.index(cell)]
        elif cell in STAR_CELLS:
            kind, colour = "star", None
        else:
            kind, colour = "plain", None
        cells.append({"x": x, "y": y, "kind": kind, "colour": colour, "cell": cell})
    for c, lane in enumerate(LANES):
        for k, (x, y) in enumerate(lane):
            colour = COLOUR_NAMES[c]
            cells.append({"x": x, "y": y, "kind": "lane", "colour": colour, "cell": None, "step": k + 1})
    return tuple(cells)


#: Every drawn square of the ring and the lanes, in the shape ``board_context``
#: documents. Shared by every call: treat as read-only.
CELLS = _cells()
_SAFE_MARKS = tuple({"x": RING[cell][0], "y": RING[cell][1], "cell": cell} for cell in sorted(SAFE_CELLS))


def _stack_offsets(n: int) -> tuple[tuple[float, float, float], ...]:
    """(dx, dy, scale) for each of ``n`` colours sharing one square (1..4), so that all show."""
    if n == 1:
        return ((0.0, 0.0, 1.0),)
    if n == 2:
        return ((-0.22, -0.22, 0.8), (0.22, 0.22, 0.8))
    quads = ((-0.23, -0.23), (0.23, -0.23), (-0.23, 0.23), (0.23, 0.23))
    return tuple((dx, dy, 0.6) for dx, dy in quads[:n])


#: _STACKS[k]: where the k colours sharing a square are drawn (k = 1..4: a
#: colour's pieces on one square are one drawn piece with a count badge).
_STACKS = (None,) + tuple(_stack_offsets(n) for n in range(1, 5))
#: _BADGES[k][j]: the count badge's centre, from the square's centre, of colour
#: j of k on that square: at the piece's outer corner (top right when alone).
_BADGES = (None, ((0.36, -0.36),), ((-0.52, -0.52), (0.52, 0.52))) + tuple(
    tuple((dx * 2.1, dy * 2.1) for dx, dy, _ in _stack_offsets(n)) for n in (3, 4)
)
_PILE = {
    name: f'<use class="lb-under" href="#lb-{name}" transform="translate(.09 .11)"/>' for name in COLOUR_NAMES
}
_BASE_SCALE = 1.2
_HOME_SCALE = 0.58

#: SQUARE[c][progress] for progress 0..55: the grid square a piece of colour c
#: stands on (ring or home lane).
SQUARE = tuple(
    tuple(RING[(START_CELLS[c] + p) % RING_CELLS] for p in range(LANE_FIRST)) + LANES[c] for c in range(4)
)

#: The parts of the board that never change, as ``board.html#grid`` draws them.
STATIC = {
    "size": GRID,
    "cells": CELLS,
    "safe": _SAFE_MARKS,
    "home": _HOME,
    "bases": tuple(
        {"colour": COLOUR_NAMES[c], "x": BASES[c][0], "y": BASES[c][1], "slots": BASE_SLOTS[c]}
        for c in range(4)
    ),
}


@cache
def _cached_grid() -> str:
    from django.template.loader import render_to_string
    from django.utils.safestring import mark_safe

    return mark_safe(render_to_string("games/ludo/board.html#grid", {"board": STATIC}))


def grid_markup() -> str:
    """The SVG markup of the static board (``board.html#grid``: bases, ring,
    lanes, centre, safe marks), rendered once per process; every move only
    renders the pieces. Re-rendered on each call when ``settings.DEBUG``, so
    template edits show at once."""
    from django.conf import settings

    if settings.DEBUG:
        _cached_grid.cache_clear()
    return _cached_grid()


def _transform(x: float, y: float, scale: float) -> str:
    # Written here rather than in the template: SVG wants "." decimals whatever the locale.
    if scale == 1:
        return f"translate({x:g} {y:g})"
    return f"translate({x:g} {y:g}) scale({scale:g})"


def _piece_svg(p: dict) -> str:
    """One piece's markup; one standing for several shows a second shape under it, a pile."""
    colour, pile = p["colour"], p["count"] > 1
    head = f'<g class="lb-pc {colour} lb-pile"' if pile else f'<g class="lb-pc {colour}"'
    under = _PILE[colour] if pile else ""
    body = f'<use href="#lb-{colour}"/><text>{p["piece"]:d}</text></g>'
    return f'{head} transform="{p["transform"]}">{under}{body}'


def _part(key: str, inner: str, attrs: str = "") -> str:
    """``<g id="key">`` holding ``inner``, marked as a part of the public frame (games.frames.wire)."""
    return f'<g id="{key}"{attrs}>{part(key, inner, svg=True)}</g>'


#: The seat colours' names in the board's words (the engine's COLOUR_NAMES, capitalised).
_COLOUR_WORDS = {"red": ("seat colour", "Red"), "green": ("seat colour", "Green"),
                 "yellow": ("seat colour", "Yellow"), "blue": ("seat colour", "Blue")}


def colour_word(colour: str) -> str:
    """A seat colour's name ("red") in the active language, capitalised ("Red", "Rot")."""
    return pgettext(*_COLOUR_WORDS[colour])


def _describe_seat(name: str, status: str, places: dict) -> str:
    """A seat's words for the board's accessible name, in the active language:
    "Red: 1 home, piece 0 on cell 14 (safe), 2 in base"."""
    if status == "left":
        return _("%(seat)s: left the match") % {"seat": name}
    parts = []
    home = len(places["home"])
    if home:
        parts.append(_("all 4 home") if home == PIECES_PER_SEAT else _("%(n)d home") % {"n": home})
    for i, step in places["lane"]:
        parts.append(_("piece %(piece)d in home lane at step %(step)d of 5") % {"piece": i, "step": step})
    for i, cell in places["ring"]:
        if cell in SAFE_CELLS:
            parts.append(_("piece %(piece)d on cell %(cell)d (safe)") % {"piece": i, "cell": cell})
        else:
            parts.append(_("piece %(piece)d on cell %(cell)d") % {"piece": i, "cell": cell})
    if places["base"]:
        parts.append(_("%(n)d in base") % {"n": len(places["base"])})
    # Translators: the separator of a seat's list of piece positions ("1 home, piece 0 on cell 14").
    return _("%(seat)s: %(places)s") % {"seat": name, "places": pgettext("list separator", ", ").join(parts)}


def board_context(view: dict) -> dict:
    """What ``games/ludo/board.html`` draws for an engine view (any viewer's:
    the board uses only what every viewer sees, never the viewer).

    Returns (positions in grid units, cells by ring index 0..51)::

        {"size": 15,                         # grid units per side (the SVG viewBox)
         "grid": "<svg markup>",             # the static board, see grid_markup()
         "cells": [{"x": 1, "y": 6,          # grid square (top-left corner), 0..14
                    "kind": "plain" | "start" | "star" | "lane",
                    "colour": "red" | ... | None,   # start cells and lanes only
                    "cell": 0..51 | None,    # ring cell index (None for lanes)
                    "step": 1..5},           # lanes only: progress 51..55 -> 1..5
                   ...],                     # 52 ring cells (index order) then 4 x 5 lane cells
         "safe": [{"x", "y", "cell"}],       # the 8 safe cells (starts, stars)
         "home": [{"colour", "points"}],     # the centre's 4 triangles (SVG points)
         "bases": [{"colour": "red", "x": 0, "y": 0,   # 6 x 6 quadrant, top-left square
                    "status": "playing" | "done" | "left" | "empty",  # empty: no seat
                    "turn": bool,            # this colour's seat has the turn
                    "slots": ((cx, cy), ...)},  # centres of the 4 slots, piece order
                   ...],                     # always 4, colour order
         "pieces": [{"colour": "red", "seat": 0, "piece": 0..3,
                     "where": "ring" | "lane" | "base" | "home",
                     "cell": 0..51 | None,   # ring cell, or None
                     "x": cx, "y": cy,       # centre, grid units
                     "scale": 1.0,           # smaller when colours share a square, in base, home
                     "transform": "translate(cx cy) scale(s)",  # the same, for SVG
                     "count": n,             # this seat's pieces on that square (1 when alone)
                     "top": bool,            # the one drawn for them (the lowest number)
                     "safe": bool},          # on a start or star cell
                    ...],                    # removed pieces (seat left) are left out
         "pieces_svg": "<g id=\"lp-red-0\"><g class=\"lb-pc red\" ...>...</g></g>...",
                                             # a group per piece, in that order, holding it when it is
                                             # the top one drawn (safe markup; games.frames.wire parts)
         "base_marks_svg": "<g id=\"lb-marks\"><rect class=\"lb-mark ...\"/>...</g>",
                                             # the marked bases (to move, done, left)
         "stacks": [{"x": bx, "y": by,       # a count badge ("x2") beside each piece drawn for 2+
                     "count": n, "colour": "red",
                     "square": (sx, sy)}],   # the grid square they stand on
         "stacks_svg": "<g id=\"lb-stacks\" class=\"lb-counts over-layer\" ...>...</g>",
                                             # the badges drawn (safe markup; empty group: none)
         "turn": "red" | None,               # colour to play (None once over)
         "summary": "Red: 1 home, piece 0 on cell 14, 2 in base; Green: ...",  # all seats in words
         "labelledby": "board-title lb-sum-0 lb-sum-1",  # the board's aria-labelledby
         "seat_texts_html": "<p id=\"lb-sum-0\">Red: 1 home, ...</p>..."}
                                             # a seat's words each, hidden (safe markup; parts)

    The static parts (cells, safe, home, grid) are shared by every call: read only.
    Raises ``KeyError`` for a dict that is not a Ludo view.
    """
    seats = view["seats"]
    turn = view.get("turn")
    over = view.get("phase") == "over"
    bases = [{**b, "status": "empty", "turn": False} for b in STATIC["bases"]]
    pieces = []
    at_square: dict[tuple[int, int], list[dict]] = {}
    texts, seat_keys = [], []
    turn_colour = None
    for seat in seats:
        c = seat["colour_index"]
        name = COLOUR_NAMES[c]
        status = seat["status"]
        base = bases[c]
        base["status"] = status
        if turn == seat["seat"] and not over:
            base["turn"] = True
            turn_colour = name
        places = {"home": [], "lane": [], "ring": [], "base": []}
        for pc in seat["pieces"]:
            w = pc["where"]
            if w == "removed":
                continue
            i = pc["piece"]
            piece = {"colour": name, "seat": seat["seat"], "piece": i, "where": w, "cell": pc["cell"],
                     "count": 1, "top": True, "safe": False}  # fmt: skip
            if w == "base":
                x, y = BASE_SLOTS[c][i]
                piece.update(x=x, y=y, scale=_BASE_SCALE, transform=_transform(x, y, _BASE_SCALE))
                places["base"].append(i)
            elif w == "home":
                x, y = HOME_SLOTS[c][i]
                piece.update(x=x, y=y, scale=_HOME_SCALE, transform=_transform(x, y, _HOME_SCALE))
                places["home"].append(i)
            else:
                p = pc["progress"]
                at_square.setdefault(SQUARE[c][p], []).append(piece)
                if w == "ring":
                    piece["safe"] = pc["cell"] in SAFE_CELLS
                    places["ring"].append((i, pc["cell"]))
                else:
                    places["lane"].append((i, p - LANE_FIRST + 1))
            pieces.append(piece)
        texts.append(_describe_seat(colour_word(name), status, places))
        seat_keys.append(f"lb-sum-{seat['seat']:d}")
    stacks = []
    for (sx, sy), group in at_square.items():
        # One drawn piece per colour on a square: a seat's pieces there are
        # interchangeable (one choice, ludo_tags), the lowest number on top.
        by_colour: dict[str, list[dict]] = {}
        for piece in group:
            by_colour.setdefault(piece["colour"], []).append(piece)
        k = len(by_colour)
        cx, cy = sx + 0.5, sy + 0.5
        for (dx, dy, scale), (bx, by), (colour, same) in zip(
            _STACKS[k], _BADGES[k], by_colour.items(), strict=True
        ):
            x, y = round(cx + dx, 2), round(cy + dy, 2)
            transform = _transform(x, y, scale)
            for j, piece in enumerate(same):
                piece.update(x=x, y=y, scale=scale, count=len(same), transform=transform, top=j == 0)
            if len(same) > 1:
                stacks.append({"x": round(cx + bx, 2), "y": round(cy + by, 2), "count": len(same),
                               "colour": colour, "square": (sx, sy)})  # fmt: skip
    # The pieces as markup, built here: the template's loop over 16 pieces was
    # three quarters of a move's board render (docs/benchmarks.md, "Fourth
    # round"). Nothing here comes from a user: colour names are the engine's
    # constants, transforms are formatted numbers, pieces are 0..3.
    # Each piece has a group of its own (empty under a pile's top piece), a
    # part that an update may send alone (games.frames.wire).
    pieces_svg = mark_safe("".join(
        _part(f"lp-{p['colour']}-{p['piece']:d}", _piece_svg(p) if p["top"] else "") for p in pieces))
    # Likewise the bases' marks (the seat to move, a seat done or gone) and the
    # piles' count badges.
    base_marks_svg = mark_safe(_part("lb-marks", "".join(
        f'<rect class="lb-mark {b["status"]}{" turn" if b["turn"] else ""}" x="{b["x"]}" y="{b["y"]}"'
        ' width="6" height="6"/>'
        for b in bases if b["turn"] or b["status"] != "playing"
    )))
    stacks_svg = mark_safe(_part("lb-stacks", "".join(
        f'<g class="lb-count {s["colour"]}" transform="translate({s["x"]:g} {s["y"]:g})">'
        f'<rect x="-.38" y="-.26" width=".76" height=".52" rx=".26"/><text>×{s["count"]:d}</text></g>'
        for s in stacks
    ), ' class="lb-counts over-layer" aria-hidden="true"'))
    # Who is to play is not in it: the status beside the board says so, and the
    # title then changes only when a piece moves (an update sends it again).
    # Translators: the separator between seats' words in the board's summary ("Red: …; Green: …").
    summary = pgettext("seat list separator", "; ").join(texts) + "."
    # The board's accessible name is its title and a hidden paragraph a seat
    # (aria-labelledby), each a part: a move sends its seat's words, not all.
    # The words are the engine's constants and numbers: nothing to escape.
    seat_texts_html = mark_safe("".join(
        part(key, f'<p id="{key}">{text}.</p>')
        for key, text in zip(seat_keys, texts, strict=True)))
    return {
        **STATIC,
        "grid": grid_markup(),
        "bases": bases,
        "pieces": pieces,
        "pieces_svg": pieces_svg,
        "base_marks_svg": base_marks_svg,
        "stacks": stacks,
        "stacks_svg": stacks_svg,
        "turn": turn_colour,
        "summary": summary,
        "labelledby": " ".join(["board-title", *seat_keys]),
        "seat_texts_html": seat_texts_html,
    }


def is_board_move(notation: str) -> bool:
    """A move that moves a piece on the board ("p0".."p3"; games.marks)."""
    return notation[:1] == "p"


def _centre(colour: int, piece: int, progress: int | None) -> tuple[float, float]:
    """Centre of ``piece`` of ``colour`` at ``progress`` (None: its base slot; 56: home)."""
    if progress is None:
        return BASE_SLOTS[colour][piece]
    if progress >= HOME:
        return HOME_SLOTS[colour][piece]
    sx, sy = SQUARE[colour][progress]
    return sx + 0.5, sy + 0.5


def way(
    colour: int, piece: int, from_progress: int | None, to_progress: int
) -> tuple[tuple[float, float], ...]:
    """The way a move of ``piece`` (0..3) of ``colour`` (0..3) goes, along the
    track: the centres (grid units) of every square it stands on in turn, by
    the engine's progress (``from_progress``, ``from_progress`` + 1, ...,
    ``to_progress``; docs/rules.md "Ludo", Progress), so it follows the ring,
    wraps from cell 51 to 0 and turns into the home lane where the piece does.
    An entry (``from_progress`` None) goes from the piece's base slot to its
    start cell; home (56) is its home slot in the centre. Raises ``IndexError``
    for progress outside -1..56 (None for base)."""
    if from_progress is None:
        return (_centre(colour, piece, None), _centre(colour, piece, to_progress))
    return tuple(_centre(colour, piece, p) for p in range(from_progress, to_progress + 1))


def _points(points: tuple[tuple[float, float], ...]) -> str:
    # SVG points, "." decimals whatever the locale.
    return " ".join(f"{x:g},{y:g}" for x, y in points)


def last_move(rules, before, notations: list[str], after) -> dict | None:
    """The marks of Ludo piece moves ``notations`` played from state ``before``
    (games.marks documents the shape; grid units). Each path runs along the
    track (``way``). A capture is marked on the cell where it happened; a piece
    reaching home on its home slot."""
    marks = {"paths": [], "from": [], "to": [], "capture": [], "home": []}
    state = before
    for text in notations:
        move = rules.parse_move(text)
        d = describe_move(state, move)
        if "piece" not in d:
            state = rules.play(state, move)
            continue
        colour = SEAT_COLOURS[state.players][state.turn]
        points = way(colour, d["piece"], d["from_progress"], d["to_progress"])
        (fx, fy), (tx, ty) = points[0], points[-1]
        marks["paths"].append({"x1": fx, "y1": fy, "x2": tx, "y2": ty, "points": _points(points)})
        marks["from"].append({"x": fx, "y": fy, "r": 0.45})
        marks["to"].append({"x": tx, "y": ty, "r": 0.5})
        if d["captures"]:
            marks["capture"].append({"x": tx, "y": ty, "r": 0.62})
        if d["to"] == "home":
            marks["home"].append({"x": tx, "y": ty, "r": 0.42})
        state = rules.play(state, move)
    return marks if marks["to"] else None
