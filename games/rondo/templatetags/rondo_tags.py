"""The Rondo chain composer's data, from one seat's own view (its controls only).

``{% rondo_chain seat_view as chain %}`` gives::

    {"firsts": [move dicts: the placements that may start (or continue) the chain],
     "first_spaces": [their space ids, once each],
     "options": ["place I03 2", ...],   # suggestions for the next placements (no-JS form)
     "draw": move dict | None,          # option B, when allowed
     "end": move dict | None,           # a chain is in progress: end it and draw
     "letters": {"yellow": "Y", ...}}

It reads ``seat_view["private"]``: use it only in templates rendered for that seat.
"""

from django import template

from games.rondo.svg import LETTERS, chain_options

register = template.Library()


@register.simple_tag
def rondo_chain(seat_view: dict) -> dict:
    moves = (seat_view.get("private") or {}).get("moves") or []
    firsts = [m for m in moves if "space" in m]
    spaces = list(dict.fromkeys(m["space"] for m in firsts))
    return {
        "firsts": firsts,
        "first_spaces": spaces,
        "options": chain_options(seat_view),
        "draw": next((m for m in moves if m["move"] == "draw"), None),
        "end": next((m for m in moves if m["move"] == "end"), None),
        "letters": LETTERS,
    }


@register.filter
def tile_letter(colour: str) -> str:
    """The letter shown for a tile colour (Y R P B G)."""
    return LETTERS.get(colour, "?")
