"""The Rondo chain composer's data, from one seat's own view (its controls only).

``{% rondo_chain seat_view as chain %}`` gives::

    {"firsts": [move dicts: the placements that may start (or continue) the chain],
     "first_spaces": [their space ids, once each],
     "options": ["place I03 2", ...],   # suggestions for the next placements (no-JS form)
     "first_options": "<option ...>...", "datalist": "<option ...>...",  # both lists' markup
     "draw": move dict | None,          # option B, when allowed
     "end": move dict | None,           # a chain is in progress: end it and draw
     "letters": {"yellow": "Y", ...},
     "composer": JSON text}             # for games/rondo/static/js/rondo.js (below)

The composer's data is the engine's, so the page re-implements no rule
(docs/rules.md "Rondo", "Placing")::

    {"tree": {"I03": {"I04": {...}, ...}, ...},   # the spaces the chain may take next,
                                                  # after each path of spaces so far
     "options": {"I03": [{"m": "place I03 2", "l": "2 red face up on red 3, I03 (6 points)",
                          "c": "red", "n": 2,     # the tiles it uses (colour, how many)
                          "p": 6, "d": false}, ...]}}   # points; face down

The tree holds every path the chain rule allows (the next space touches the
last, no space twice, at most one switch between ring and radial edges when
that option is on) up to as many spaces as the rack has tiles; options are the
placements the whole rack allows on each space, and the page offers those the
tiles not yet used in the chain still cover (the bookkeeping of its tiles, not
a rule). Computed from a state that agrees with the seat's own view
(``Rules.sample_state``): the chain rule needs nothing the seat does not know.

It reads ``seat_view["private"]``: use it only in templates rendered for that seat.
"""

import functools
import random

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from games.engine import get_rules
from games.frames.wire import choices_json, part
from games.rondo.engine.moves import MAX_RACK
from games.rondo.engine.view import describe_move
from games.rondo.svg import LETTERS, chain_options, static_board
from games.rondo.words import colour, colour_cap

register = template.Library()


def move_words(m: dict, seat_view: dict) -> str:
    """A move's words in the active language, as engine/view.py ``describe_move``
    says them in English ("2 red face up on red 3, I03 (6 points)")."""
    if m["move"] == "end":
        return _("End the chain and draw 1 tile")
    if m["move"] == "draw":
        rack = (seat_view.get("private") or {}).get("rack") or []
        n = 1 if len(rack) == MAX_RACK - 1 else 2
        return ngettext("Draw %(n)d tile instead of placing",
                        "Draw %(n)d tiles instead of placing", n) % {"n": n}
    if "space" not in m:
        return m["label"]
    return _placement_words(get_language(), seat_view["side"], m["space"], m["count"], m["colour"],
                            m["points"], m["face_down"])


@functools.lru_cache(maxsize=8192)
def _placement_words(language, side, sid, count, tile_colour, points, face_down) -> str:
    """A placement's words in ``language`` (the active one: a key of the cache, as
    a rack's placements are worded again for every frame of the seat's turn)."""
    space = static_board(side)["by_id"][sid]
    args = {"count": count, "colour": colour(tile_colour), "space_colour": colour(space["colour"]),
            "value": space["value"], "space": sid, "points": points}
    if face_down:
        return _("1 %(colour)s face down on %(space_colour)s %(value)d, %(space)s "
                 "(a bridge, 0 points)") % args
    return ngettext("%(count)d %(colour)s face up on %(space_colour)s %(value)d, %(space)s "
                    "(%(points)d point)",
                    "%(count)d %(colour)s face up on %(space_colour)s %(value)d, %(space)s "
                    "(%(points)d points)", points) % args


def _worded(m: dict | None, seat_view: dict) -> dict | None:
    return None if m is None else dict(m, label=move_words(m, seat_view))


@register.simple_tag
def rondo_chain(seat_view: dict) -> dict:
    moves = (seat_view.get("private") or {}).get("moves") or []
    firsts = [_worded(m, seat_view) for m in moves if "space" in m]
    spaces = list(dict.fromkeys(m["space"] for m in firsts))
    options = chain_options(seat_view)
    return {
        "firsts": firsts,
        "first_spaces": spaces,
        "options": options,
        # The no-JavaScript form's <option> lists, built here: as template loops over
        # a rack's hundreds of placements they were most of a Rondo seat frame's cost.
        # Best first: the most points, face up before a 0-point face-down bridge (the
        # engine lists spaces in board order, a bridge often first).
        "first_options": mark_safe("".join(
            f'<option value="{escape(m["move"])}">{escape(m["label"])}</option>'
            for m in sorted(firsts, key=lambda m: (-m.get("points", 0), bool(m.get("face_down")))))),
        "draw": _worded(next((m for m in moves if m["move"] == "draw"), None), seat_view),
        "end": _worded(next((m for m in moves if m["move"] == "end"), None), seat_view),
        "letters": LETTERS,
        # Not escaped: chain_options writes each from the board's space ids and the
        # five colour names, never from anything a person typed.
        "datalist": mark_safe("".join(f'<option value="{o}">' for o in options)),
        "composer": composer(seat_view) if firsts else "",
    }


def composer(seat_view: dict) -> str:
    """The composer's data (the module docstring's shape), as JSON text."""
    rules = get_rules("rondo")
    state = rules.sample_state(seat_view, seat_view["viewer"], random.Random(0))
    depth = min(5, sum(state.racks[state.turn]))
    options: dict[str, list] = {}

    def paths(st, left: int) -> dict:
        out = {}
        for sid in rules.candidates(st):
            if sid not in options:
                options[sid] = [
                    {"m": d["move"], "l": move_words(d, seat_view), "c": d["colour"], "n": d["count"] or 1,
                     "p": d["points"], "d": d["face_down"]}
                    for d in (describe_move(rules, state, m) for m in rules.placements(state, sid))
                ]  # fmt: skip
            cheapest = rules.placements(st, sid)
            out[sid] = paths(rules.play(st, cheapest[-1]), left - 1) if left > 1 and cheapest else {}
        return out

    return choices_json({"tree": paths(state, depth), "options": options})


@register.filter
def colour_name(name: str) -> str:
    """A tile or seat colour's name in the active language ("red"; games.rondo.words)."""
    return colour(name)


@register.filter
def colour_title(name: str) -> str:
    """A tile or seat colour's name with a capital first letter ("Red")."""
    return colour_cap(name)


#: A tile of each colour, in words (a rack's tile for screen readers: "red tile").
_TILE_WORDS = {
    "yellow": lambda: _("yellow tile"),
    "red": lambda: _("red tile"),
    "purple": lambda: _("purple tile"),
    "blue": lambda: _("blue tile"),
    "green": lambda: _("green tile"),
}


@register.filter
def tile_words(name: str) -> str:
    """A tile of colour ``name`` in words, in the active language ("red tile")."""
    words = _TILE_WORDS.get(name)
    return f"{name} tile" if words is None else words()


@register.filter
def tile_letter(colour: str) -> str:
    """The letter shown for a tile colour (Y R P B G)."""
    return LETTERS.get(colour, "?")


@register.simple_tag
def rondo_tiles(board: dict) -> str:
    """The board's tiles layer, ``<g class="rb-tiles">``: each space of the
    side a part of the public frame (``rt-<space>``, games.frames.wire), holding
    its tiles as the board template's comment describes them, or nothing.
    Built in Python: as a template loop over 80 spaces it cost about four
    times Ludo's whole frame (docs/benchmarks.md). ``board``:
    ``games.rondo.svg.board_context``; raises ``KeyError`` for another shape."""
    out = ['<g class="rb-tiles">']
    add = out.append
    for slot in board["slots"]:
        space = slot["space"]
        t = slot["tile"]
        tile = _tile_markup(space, t["face_down"], t["in_chain"], t["colour"] or "", t["count"],
                            t["x"], t["y"], tuple(t["under"]), t["letter"], t["words"]) if t else ""
        add(f'<g id="rt-{space}">{part(f"rt-{space}", tile, svg=True)}</g>')
    add("</g>")
    return mark_safe("".join(out))


@functools.lru_cache(maxsize=4096)
def _tile_markup(space, face_down, in_chain, colour, count, x, y, under, letter, words) -> str:
    classes = "rb-tile" + (" rb-down" if face_down else "") + (" rb-in-chain" if in_chain else "") \
        + (f" c-{colour}" if colour else "")
    out = [f'<g class="{classes}" data-tile-space="{space}" data-tiles="{count}"',
           ' data-face-down="1"' if face_down else "",
           f' data-tile-colour="{colour}"' if colour else "",
           f' transform="translate({x} {y})">']
    out += [f'<rect class="rb-under" x="{u}" y="{u}" width=".68" height=".68" rx=".1"/>' for u in under]
    out.append('<rect class="rb-face" x="-.34" y="-.34" width=".68" height=".68" rx=".1"/>')
    if face_down and not colour:
        out.append('<rect class="rb-back" x="-.22" y="-.22" width=".44" height=".44" rx=".05"/>'
                   '<path class="rb-back" d="M0 -.13L.13 0L0 .13L-.13 0Z"/>')
    if letter:
        out.append(f'<text class="rb-tl">{letter}</text>')
    out.append(f"<title>{escape(words)}</title></g>")
    return "".join(out)
