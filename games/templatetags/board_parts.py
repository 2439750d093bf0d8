"""``{% last_move_marks %}``, ``{% board_choices %}`` and ``{% seats_list %}``:
parts every game's board, controls and public frame share, built in Python
rather than as included templates (an include cost about as much as the rest
of a move's marks and choices together, and the seats list as a template more
than the board; docs/benchmarks.md).

``{% last_move_marks last_move %}`` draws the last move's marks inside a
board's SVG, the same for every viewer (games/marks.py): ``last_move`` is
its marks (viewBox units; a path with "points" is a polyline through them;
labels: a badge each, a circle and its text),
``"keep"`` (this frame made no board move: the page keeps the marks it
shows) or None (nothing). Drawn under the pieces.

``{% board_choices match choices help=... compose=... %}`` is one seat's
legal choices for static/js/board.js, inside that seat's controls only
(never the public board: docs/adding-a-game.md). ``choices``: JSON text
(games.fragments.choices_json; the game's shape: its controls template
documents it); ``help``: the words shown above the labelled buttons when the
page can act on the board; ``compose``: a turn of several steps, confirmed
once (Roundabout).

``{% seats_list seat_rows %}`` is the seats list (``#seats``) of the match
and replay pages and of every public frame (games.fragments.public_context's
``seat_rows``).
"""

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from games.marks import KEEP

register = template.Library()

#: Each kind of circle mark, in drawing order, and its class.
_CIRCLES = (("from", "lm-from"), ("to", "lm-to"), ("home", "lm-home"), ("capture", "lm-capture"))


@register.simple_tag
def last_move_marks(last_move) -> str:
    """The marks' SVG group (module docstring); "" for None."""
    if last_move == KEEP:
        return mark_safe('<g class="lm lm-keep"></g>')
    if not last_move:
        return ""
    parts = ['<g class="lm" aria-hidden="true">']
    for p in last_move.get("paths", ()):
        if "points" in p:  # the way it went, along the board's track
            parts.append(f'<polyline class="lm-path" points="{p["points"]}"/>')
            continue
        parts.append(f'<line class="lm-path" x1="{p["x1"]}" y1="{p["y1"]}" x2="{p["x2"]}" y2="{p["y2"]}"/>')
    for key, cls in _CIRCLES:
        for c in last_move.get(key, ()):
            parts.append(f'<circle class="{cls}" cx="{c["x"]}" cy="{c["y"]}" r="{c["r"]}"/>')
    for b in last_move.get("labels", ()):
        parts.append(
            f'<g class="lm-label" transform="translate({b["x"]} {b["y"]})"><circle r="{b["r"]}"/>'
            f"<text>{conditional_escape(b['text'])}</text></g>"
        )
    parts.append("</g>")
    return mark_safe("".join(parts))


@register.simple_tag
def board_choices(match, choices, help="", compose=False) -> str:  # noqa: A002 - the attribute's name
    """The hidden ``<div id="board-choices">`` of one seat (module docstring)."""
    attrs = f' data-version="{int(match.version)}"'
    if compose:
        attrs += ' data-compose="1"'
    if help:
        attrs += f' data-help="{conditional_escape(help)}"'
    return mark_safe(f'<div id="board-choices" hidden{attrs}>{conditional_escape(choices)}</div>')


@register.simple_tag
def seats_list(seat_rows: list[dict]) -> str:
    """``<ol id="seats">`` for ``seat_rows`` (games.fragments.public_context's:
    each {"seat": Seat, "view": the seat's public view, "name": str,
    "profile_url": str | None, "is_turn": bool, "rating": SeatRating | None}),
    as an htmx out-of-band swap, names and words escaped."""
    esc = conditional_escape
    out = ['<ol id="seats" class="seats" hx-swap-oob="true" aria-label="Players">']
    for row in seat_rows:
        seat, view, colour = row["seat"], row["view"], esc(row["view"].get("colour", ""))
        name = esc(row["name"])
        if row["profile_url"]:
            name = f'<a href="{esc(row["profile_url"])}">{name}</a>'
        parts = [f'<li class="seat seat-{colour}{" is-turn" if row["is_turn"] else ""}">',
                 f'<span class="swatch swatch-{colour}" aria-hidden="true"></span>',
                 f'<span class="name">{name}</span>',
                 f'<span class="colour">{colour[:1].upper()}{colour[1:]}</span>']
        rating = row.get("rating")
        if rating:
            title = "Rating (provisional)" if "?" in str(rating.before) else "Rating"
            text = esc(rating.before)
            if rating.change:
                text += f' → {esc(rating.after)} <span class="rating-change">({esc(rating.change)})</span>'
            parts.append(f'<span class="rating" title="{title}">{text}</span>')
        if view.get("home") is not None:
            parts.append(f'<span class="home">{esc(view["home"])}/4 home</span>')
        if seat.status != "playing":
            parts.append(f'<span class="gone">{esc(seat.get_status_display())}</span>')
        if seat.rank:
            parts.append(f'<span class="rank">Place {esc(seat.rank)}</span>')
        if row["is_turn"]:
            parts.append('<span class="visually-hidden">(to move)</span>')
        parts.append("</li>")
        out.append("".join(parts))
    out.append("</ol>")
    return mark_safe("".join(out))
