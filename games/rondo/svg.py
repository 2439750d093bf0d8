"""Where things are drawn on the round Rondo board, from the board data.

Sources: ``games/rondo/engine/rondo-board.json`` (coordinates in space pitch
units, x right, y up; both sides) through the engine's ``Board``; docs/rules.md
"Rondo" (Board, Hidden information).

``board_context(view)`` reads only the PUBLIC part of a view (never
``view["private"]``): the board is rendered once per move for every watcher.
Before the match ends it never carries a rack's tiles or a face-down tile's
colour, because the public view does not hold them.
"""

from __future__ import annotations

from functools import cache, lru_cache

from django.template.loader import render_to_string
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from games.engine import get_rules
from games.rondo.words import colour, colour_cap

#: Half the board's width in pitch units plus a margin (spaces lie within 6.0).
EXTENT = 6.9
RADIUS = 0.46
#: The last chain's badges: how far right and up of a space's centre, and how big.
BADGE_AT = 0.38
BADGE_RADIUS = 0.23
#: Half the side of a gray space's plate (a rounded square behind its disc).
PLATE = 0.47
#: A stack of face-up tiles: each tile under the top one peeks out this far
#: right and down, at most ``STACK_SHOWN`` of them (a space takes up to 5 tiles).
STACK_STEP = 0.07
STACK_SHOWN = 3
#: A letter per tile colour, so a colour is never the only cue.
LETTERS = {"yellow": "Y", "red": "R", "purple": "P", "blue": "B", "green": "G"}


def _num(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".") or "0"


#: The under-tiles' top-left corners of a stack of 1, 2, ... tiles (the deepest first).
_UNDER = [[_num(k * STACK_STEP - 0.34) for k in range(n, 0, -1)] for n in range(STACK_SHOWN + 1)]


@cache
def static_board(side: str) -> dict:
    """Spaces and edges of one side (cached per process), and ``"context"``:
    what ``board.html#static`` draws of them (``static_markup``)."""
    board = get_rules("rondo").board(side)
    spaces = []
    for i, sid in enumerate(board.ids):
        colour = ("yellow", "red", "purple", "blue", "green")[board.colour[i]]
        spaces.append(
            {
                "id": sid,
                "x": _num(board.x[i]),
                "y": _num(-board.y[i]),  # SVG y points down
                "colour": colour,
                "letter": LETTERS[colour],
                "value": board.value[i],
                "gray": board.gray[i],
                "zone": board.zone[i],
                "start": bool(board.start_mask >> i & 1),
            }
        )
    edges = []
    by_id = {s["id"]: s for s in spaces}
    for i in range(board.size):
        for j, kind in board.nb[i]:
            if i < j:
                a, b = spaces[i], spaces[j]
                edges.append({"a": a["id"], "b": b["id"], "kind": "ring" if kind == 1 else "radial",
                              "x1": a["x"], "y1": a["y"], "x2": b["x"], "y2": b["y"]})  # fmt: skip
    for sid in [s["id"] for s in spaces if s["start"]]:
        s = by_id[sid]
        edges.append({"a": "C", "b": sid, "kind": "radial", "x1": "0", "y1": "0", "x2": s["x"], "y2": s["y"]})
    ctx = {"spaces": spaces, "edges": edges, "radius": RADIUS, "extent": _num(EXTENT),
           "plate": _num(PLATE), "plate2": _num(2 * PLATE)}
    return {"spaces": spaces, "by_id": by_id, "edges": edges, "context": ctx}


@cache
def static_markup(side: str, language: str | None) -> str:
    """The static SVG markup of one side (its spaces' titles in ``language``, the
    active one: ``get_language()``), rendered once per process and language."""
    return render_to_string("games/rondo/board.html#static", static_board(side)["context"])


def board_context(view: dict) -> dict:
    """What ``games/rondo/board.html`` draws for an engine view (any viewer's:
    only the public part is read).

    Returns::

        {"side": "blue", "extent": "6.9", "size": "13.8",   # viewBox -extent..extent
         "static": "<svg markup>",          # spaces and edges, cached per side
         "one_change": True,
         "tiles": [{"space": "I03", "x", "y", "face_down": bool, "count": n,
                    "colour": "purple" | None,   # None: face down and the match is live
                    "letter": "P" | "", "owner": seat | None, "in_chain": bool,
                    "under": ["-0.2", "-0.27"],  # the stack's other tiles' corners
                    "words": "I03: 2 purple tiles face up"}, ...],
         "slots": [{"space": "I03", "tile": one of tiles | None}, ...],  # every space of
                                            # the side, in the board's order: the board's
                                            # parts (games.frames.wire) keep their names
         "chain": ["I03", ...], "chain_points": n,
         "seats": [{"seat", "colour", "score", "rack_size", "status", "turn": bool,
                    "rack": None | [{"colour", "letter"}]}],   # rack: only once over
         "bag": n, "ending": bool, "over": bool,
         "summary": "Red 12 points, 3 tiles; ... 97 tiles in the bag."}

    Raises ``KeyError`` for a dict that is not a Rondo view.
    """
    static = static_board(view["side"])
    by_id = static["by_id"]
    language = get_language()
    chain = view["chain"]
    tiles = []
    for sid, t in view["tiles"].items():
        s = by_id[sid]
        tile_colour = t["tile_colour"]
        count = t["tiles"]
        words = _tile_words(language, sid, t["face_down"], tile_colour, count)
        tiles.append(
            {
                "space": sid,
                "x": s["x"],
                "y": s["y"],
                "face_down": t["face_down"],
                "count": count,
                "under": _UNDER[max(1, min(count, STACK_SHOWN + 1)) - 1],
                "words": words,
                "colour": tile_colour,
                "letter": LETTERS.get(tile_colour, "") if tile_colour else "",
                "owner": t["owner"],
                "in_chain": sid in chain,
            }
        )
    on = {t["space"]: t for t in tiles}
    slots = [{"space": s["id"], "tile": on.get(s["id"])} for s in static["spaces"]]
    over = view["phase"] == "over"
    seats = []
    texts = []
    for s in view["seats"]:
        rack = s["rack"]
        seats.append(
            {
                "seat": s["seat"],
                "colour": s["colour"],
                "score": s["score"],
                "rack_size": s["rack_size"],
                "status": s["status"],
                "turn": view["turn"] == s["seat"] and not over,
                "rack": None if rack is None else [{"colour": c, "letter": LETTERS[c]} for c in rack],
            }
        )
        texts.append(_("%(seat)s %(score)d points, %(rack)d tiles") % {
            "seat": colour_cap(s["colour"]), "score": s["score"], "rack": s["rack_size"]})
    face_down = sum(1 for t in tiles if t["face_down"])
    summary = _summary(texts, view["bag"], len(tiles), face_down, view["ending"] and not over)
    return {
        "side": view["side"],
        "extent": _num(EXTENT),
        "size": _num(2 * EXTENT),
        "static": static_markup(view["side"], language),
        "one_change": view["one_change"],
        "tiles": tiles,
        "slots": slots,
        "chain": chain,
        "chain_points": view["chain_points"],
        "seats": seats,
        "bag": view["bag"],
        "ending": view["ending"],
        "over": over,
        "summary": summary,
    }


@lru_cache(maxsize=4096)
def _tile_words(language: str | None, sid: str, face_down: bool, tile_colour: str | None, count: int) -> str:
    """A space's tiles in words (its title) in ``language``, the active one (a key
    of the cache: a board renders once per move and language, its words are the
    same move after move): "I03: 2 purple tiles face up", "I04: a tile face down,
    a bridge" (and its colour once everyone may know it)."""
    if face_down and tile_colour:
        return _("%(space)s: a tile face down, a bridge (%(colour)s)") % {
            "space": sid, "colour": colour(tile_colour)}
    if face_down:
        return _("%(space)s: a tile face down, a bridge") % {"space": sid}
    return ngettext("%(space)s: %(count)d %(colour)s tile face up",
                    "%(space)s: %(count)d %(colour)s tiles face up", count) % {
        "space": sid, "count": count, "colour": colour(tile_colour)}


def _summary(texts: list[str], bag: int, covered: int, face_down: int, final: bool) -> str:
    """The board's title: each seat's score and rack, the bag, the spaces covered."""
    # Translators: the separator between seats' words in the board's title ("Red 12 points, …; Green …").
    seats = pgettext("seat list separator", "; ").join(texts)
    args = {"seats": seats, "bag": bag, "covered": covered, "down": face_down}
    if face_down:
        text = _("%(seats)s. %(bag)d tiles in the bag; %(covered)d spaces covered "
                 "(%(down)d face down).") % args
    else:
        text = _("%(seats)s. %(bag)d tiles in the bag; %(covered)d spaces covered.") % args
    return text + " " + _("Final round.") if final else text


def chain_options(seat_view: dict) -> list[str]:
    """Every placement notation the seat's rack allows on an empty space (for
    the no-JavaScript chain form's suggestions; the server checks the chain).
    Reads the seat's own ``private`` part: only for that seat's controls."""
    rack = seat_view.get("private", {}).get("rack_counts") or {}
    held = [c for c, n in rack.items() if n]
    if not held:
        return []
    static = static_board(seat_view["side"])
    out = []
    for s in static["spaces"]:
        if s["id"] in seat_view["tiles"]:
            continue
        for n in range(1, rack.get(s["colour"], 0) + 1):
            out.append(f"place {s['id']} {n}")
        for c in held:
            out.append(f"place {s['id']} down {c}")
    return out


def is_board_move(notation: str) -> bool:
    """A placement ("place I03 2", "place I04 down red"; games.marks)."""
    return notation[:6] == "place "


def last_move(rules, before, notations: list[str], after) -> dict | None:
    """The marks of a chain's placements ``notations`` (games.marks documents
    the shape; space pitches): each space of the chain (a dashed ring, and a
    badge at its top right numbering the chain: 1, 2, ...) and the links
    between them. Only the spaces: a face-down tile's colour is nobody
    else's business (docs/rules.md "Hidden information")."""
    by_id = static_board(before.board.side)["by_id"]
    spaces = [by_id[n.split()[1]] for n in notations]
    marks = {"paths": [], "from": [], "to": [], "capture": [], "home": [], "labels": []}
    for a, b in zip(spaces, spaces[1:], strict=False):
        marks["paths"].append({"x1": a["x"], "y1": a["y"], "x2": b["x"], "y2": b["y"]})
    for n, s in enumerate(spaces, 1):
        marks["to"].append({"x": s["x"], "y": s["y"], "r": 0.5})
        marks["labels"].append({"x": _num(float(s["x"]) + BADGE_AT), "y": _num(float(s["y"]) - BADGE_AT),
                                "r": BADGE_RADIUS, "text": str(n)})
    return marks if spaces else None
