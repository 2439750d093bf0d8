"""Ludo's choices for ONE seat's controls (its own frame only: docs/adding-a-game.md).

``{% ludo_choices seat_view legal as choices %}`` gives::

    {"buttons": [move dicts],      # the legal moves, equivalent ones merged (below)
     "board": "[...]"}             # the same choices for static/js/board.js (JSON)

Equivalent choices are one choice: pieces waiting in base are interchangeable,
so every "enter" move is one "Bring a piece out" choice; pieces of one seat on one
square move alike, so they are one choice too (docs/rules.md "Ludo", "Forced
moves": moves that lead to the same position count as one). The lowest piece
number is the one sent.

Board choices (JSON, viewBox units 0..15, see games/ludo/svg.py)::

    [{"m": "p2",                       # the move sent
      "k": "p2",                       # the board target (one per piece or base)
      "l": "Move a piece forward 6",   # its words (move_words: engine/view.py _label's, translated)
      "h": [cx, cy, r],                # hit circle at the piece (r = 1 cell: 48 px on a phone)
      "hr": [x, y, w, h] | absent,     # hit rectangle (the base, for "Bring a piece out")
      "t": [x, y],                     # its destination's centre
      "p": [[x, y], ...],              # its way along the track, square by square (svg.way)
      "g": "lb-red", "gc": "red",      # the preview's shape (a symbol of board.html) and colour
      "gt": "translate(x y) scale(.9)",  # where the preview is drawn
      "e": 1}]                         # the choice ends the decision
"""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from games.frames.wire import choices_json
from games.ludo.engine.board import LANE_FIRST, SAFE_CELLS
from games.ludo.svg import BASES, board_context, way

register = template.Library()

#: A captured seat's colour in a move's words ("…, capturing red").
_CAPTURED = {
    "red": pgettext_lazy("ludo move: capturing …", "red"),
    "green": pgettext_lazy("ludo move: capturing …", "green"),
    "yellow": pgettext_lazy("ludo move: capturing …", "yellow"),
    "blue": pgettext_lazy("ludo move: capturing …", "blue"),
}
HIT_RADIUS = 1.0  # grid units: a 48 px circle where a cell is about 24 px (390 px phone)


def _merged(legal: list[dict]) -> list[dict]:
    """Piece moves with one move per starting square (base counts as one)."""
    out, seen = [], {}
    for m in legal:
        if "piece" not in m:
            out.append(m)
            continue
        key = m["from_progress"]
        if key in seen:
            seen[key]["count"] += 1
            continue
        m = dict(m, count=1)
        seen[key] = m
        out.append(m)
    return out


def _piece_words(m: dict, any_piece: bool, colours: list[str]) -> str:
    """A piece move's words in the active language, as engine/view.py ``_label``
    says them in English ("Move piece 0 forward 5, onto a safe cell"); "a piece"
    for a choice standing for several pieces. ``colours``: seat -> colour name."""
    args = {"piece": m["piece"]}
    if m["from_progress"] is None:
        return _("Bring a piece out") if any_piece else _("Bring piece %(piece)d out") % args
    args["die"] = m["to_progress"] - m["from_progress"]
    if m["to"] == "home":
        return (_("Move a piece forward %(die)d, home") if any_piece
                else _("Move piece %(piece)d forward %(die)d, home")) % args
    if m["to"] == "lane" and m["from_progress"] >= LANE_FIRST:
        return (_("Move a piece forward %(die)d, up your home lane") if any_piece
                else _("Move piece %(piece)d forward %(die)d, up your home lane")) % args
    if m["to"] == "lane":
        return (_("Move a piece forward %(die)d, into your home lane") if any_piece
                else _("Move piece %(piece)d forward %(die)d, into your home lane")) % args
    if m["to_cell"] in SAFE_CELLS:
        return (_("Move a piece forward %(die)d, onto a safe cell") if any_piece
                else _("Move piece %(piece)d forward %(die)d, onto a safe cell")) % args
    if m["captures"]:
        names = [str(_CAPTURED[colours[o]]) for o in m["captures"]]
        # Translators: the colours captured by one move when there are several ("red and green").
        args["colour"] = names[0] if len(names) == 1 else _("%(first)s and %(second)s") % {
            "first": pgettext("list separator", ", ").join(names[:-1]), "second": names[-1]}
        return (_("Move a piece forward %(die)d, capturing %(colour)s") if any_piece
                else _("Move piece %(piece)d forward %(die)d, capturing %(colour)s")) % args
    return (_("Move a piece forward %(die)d") if any_piece
            else _("Move piece %(piece)d forward %(die)d")) % args


def move_words(m: dict, colours: list[str]) -> str:
    """The words of a choice (``_merged``'s move dicts): "Roll the die", or a piece move's."""
    if "piece" not in m:
        return _("Roll the die") if m["move"] == "roll" else m["label"]
    return _piece_words(m, m.get("count", 1) > 1, colours)


@register.simple_tag
def ludo_choices(seat_view: dict, legal: list[dict]) -> dict:
    colours = [s["colour"] for s in seat_view["seats"]]
    buttons = [dict(m, label=move_words(m, colours)) for m in _merged(legal)]
    board = []
    if any("piece" in m for m in buttons):
        seat = seat_view["turn"]
        info = next(s for s in seat_view["seats"] if s["seat"] == seat)
        c = info["colour_index"]
        drawn = {(p["seat"], p["piece"]): p for p in board_context(seat_view)["pieces"]}
        for m in buttons:
            if "piece" not in m:
                continue
            p = drawn[(seat, m["piece"])]
            points = way(c, m["piece"], m["from_progress"], m["to_progress"])
            tx, ty = points[-1]
            choice = {"m": m["move"], "k": m["move"], "l": m["label"], "h": [p["x"], p["y"], HIT_RADIUS],
                      "t": [tx, ty], "p": [list(xy) for xy in points], "g": f"lb-{info['colour']}",
                      "gc": info["colour"], "gt": f"translate({tx:g} {ty:g}) scale(.9)", "e": 1}  # fmt: skip
            if m["from_progress"] is None:
                bx, by = BASES[c]
                choice["hr"] = [bx, by, 6, 6]
            board.append(choice)
    return {"buttons": buttons, "board": choices_json(board)}
