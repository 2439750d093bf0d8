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
(games.frames.wire.choices_json; the game's shape: its controls template
documents it); ``help``: the words shown above the labelled buttons when the
page can act on the board; ``compose``: a turn of several steps, confirmed
once (Roundabout).

``{% part "id" %}…{% endpart %}`` (``{% part "id" svg=True %}``: the content
of the SVG element with that id; ``{% part "rb-score-" s.seat %}``: the id
joined from values) marks what it encloses as a part of the
public frame (games.frames.wire.part, the only writer of part markers).

``{% seats_list seat_rows %}`` is the seats list (``#seats``) of the match
and replay pages and of every public frame (games.frames.contexts.public_context's
``seat_rows``).

``{% dice view %}`` is the dice (``#dice``) of the match and replay pages and
of every public frame (the public frame calls it, the pages include
``templates/games/dice.html``, which says what it draws).

``{% move_turns turns %}`` and ``{% move_lines lines %}`` are the move list's
turns (``<li class="turn">`` each, its lines inside) and lines (``<li
class="move-line">``), as templates/games/match_parts.html's move list lays
them out (games.frames.moves.ShownLine, games.record.Turn).
"""

from django import template
from django.utils.formats import date_format
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from accounts.templatetags import bots
from games.frames.wire import part as marked
from games.marks import KEEP

register = template.Library()

#: Each kind of circle mark, in drawing order, and its class.
_CIRCLES = (("from", "lm-from"), ("to", "lm-to"), ("home", "lm-home"), ("capture", "lm-capture"))


def _num(v) -> str:
    """A coordinate as few characters as it needs ("11", not "11.0")."""
    return f"{v:g}" if isinstance(v, float) else str(v)


@register.simple_tag
def last_move_marks(last_move) -> str:
    """The marks' SVG group (module docstring); "" for None."""
    if last_move == KEEP:
        return mark_safe('<g class="lm lm-keep"></g>')
    if not last_move:
        return ""
    # No aria-hidden: every board is one role="img" (its name in words), so
    # nothing inside it reaches a screen reader.
    parts = ['<g class="lm">']
    for p in last_move.get("paths", ()):
        if "points" in p:  # the way it went, along the board's track
            parts.append(f'<polyline class="lm-path" points="{p["points"]}"/>')
            continue
        parts.append(f'<line class="lm-path" x1="{p["x1"]}" y1="{p["y1"]}" x2="{p["x2"]}" y2="{p["y2"]}"/>')
    for key, cls in _CIRCLES:
        for c in last_move.get(key, ()):
            x, y, r = _num(c["x"]), _num(c["y"]), _num(c["r"])
            parts.append(f'<circle class="{cls}" cx="{x}" cy="{y}" r="{r}"/>')
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


#: The seats' colours as the seats list names them (the glossary's words).
SEAT_COLOURS = {
    "red": pgettext_lazy("seat colour", "Red"), "green": pgettext_lazy("seat colour", "Green"),
    "yellow": pgettext_lazy("seat colour", "Yellow"), "blue": pgettext_lazy("seat colour", "Blue"),
    "purple": pgettext_lazy("seat colour", "Purple"),
}


def _colour_name(colour: str) -> str:
    name = SEAT_COLOURS.get(colour)
    return str(name) if name is not None else f"{colour[:1].upper()}{colour[1:]}"


@register.simple_tag
def seats_list(seat_rows: list[dict], parts: bool = False, game=None) -> str:
    """``<ol id="seats">`` for ``seat_rows`` (games.frames.contexts.public_context's:
    each {"seat": Seat, "view": the seat's public view, "name": str,
    "profile_url": str | None, "is_turn": bool, "rating": SeatRating | None}),
    as an htmx out-of-band swap, names and words escaped. Whose turn it is
    shows in each row's ``<i id="seat-turn-<seat index>">``, empty but for
    the seat to move: the words "(to move)", for screen readers (match.css
    hides them and marks the row), so that a turn passing changes two small
    elements, not two rows. ``parts``: those marked as parts of the public frame (games.frames.wire).
    ``game``: the game's GameSite, whose ``seat_phrase`` of a seat's view is its row's
    ``<span class="home">`` cell ("2/4 home"; none when empty or without ``game``). A bot
    account's name is followed by the BOT mark (``accounts.templatetags.bots.BADGE``). A row's
    ``holiday_until`` (a date; turn-based matches) adds "on holiday until <date>"."""
    esc = conditional_escape
    players = esc(_("Players"))
    out = [f'<ol id="seats" class="seats" hx-swap-oob="true" aria-label="{players}">']
    for row in seat_rows:
        seat, view, colour = row["seat"], row["view"], esc(row["view"].get("colour", ""))
        name = esc(row["name"])
        if row["profile_url"]:
            name = f'<a href="{esc(row["profile_url"])}">{name}</a>'
        if seat.user_id and seat.user.is_bot:  # the seat's user is loaded already: no query
            name += bots.BADGE
        cells = [f'<li class="seat seat-{colour}">',
                 f'<span class="swatch swatch-{colour}" aria-hidden="true"></span>',
                 f'<span class="name">{name}</span>',
                 f'<span class="colour">{esc(_colour_name(row["view"].get("colour", "")))}</span>']
        rating = row.get("rating")
        if rating:
            title = esc(_("Rating (provisional)") if "?" in str(rating.before) else _("Rating"))
            text = esc(rating.before)
            if rating.change:
                text += f' → {esc(rating.after)} <span class="rating-change">({esc(rating.change)})</span>'
            cells.append(f'<span class="rating" title="{title}">{text}</span>')
        phrase = game.seat_phrase(view) if game is not None else ""
        if phrase:
            cells.append(f'<span class="home">{esc(phrase)}</span>')
        if seat.status != "playing":
            cells.append(f'<span class="gone">{esc(seat.get_status_display())}</span>')
        if seat.rank:
            # Translators: a seat's place when the match is over: "Place 1".
            place = _("Place %(rank)s") % {"rank": seat.rank}
            cells.append(f'<span class="rank">{esc(place)}</span>')
        if row.get("holiday_until"):  # a turn-based match: this player's clocks are stopped
            until = _("on holiday until %(date)s") % {"date": date_format(row["holiday_until"], "j F Y")}
            cells.append(f'<span class="holiday">{esc(until)}</span>')
        key = f"seat-turn-{int(seat.index)}"
        turn = f'<i id="{key}"></i>'
        if row["is_turn"]:
            to_move = pgettext("seats list", "(to move)")
            turn = f'<i id="{key}">{esc(to_move)}</i>'
        cells.append(marked(key, turn) if parts else turn)
        cells.append("</li>")
        out.append("".join(cells))
    out.append("</ol>")
    return mark_safe("".join(out))


def _die(d: int) -> str:
    # One empty element a die: match.css draws its pips (or, with the
    # dice-numbers setting, its numeral) from data-die, so a roll sends a few
    # bytes where an SVG face cost about 170 (the dice are in most updates).
    if not 1 <= d <= 6:
        raise ValueError(f"a die shows 1 to 6, not {d}")
    return f'<i class="die" data-die="{d}"></i>'


@register.simple_tag
def dice(view: dict, parts: bool = False) -> str:
    """``<div id="dice">`` for an engine view (``view["die"]``: 1..6 or None;
    ``view["dice"]``: [a, b] in two-dice games; ``view["phase"]``), as an
    htmx out-of-band swap (templates/games/dice.html); ``<span id="dice-age"
    class="dice-age is-old">`` inside while the dice shown are the last
    turn's. ``parts``: that mark marked as a part of the public frame
    (games.frames.wire). Raises ``ValueError`` for a die outside 1..6."""
    # Whether the dice shown are the last turn's: a mark of its own inside
    # (match.css styles the dice by it), so that it passing changes one small
    # element, not the dice (a part of the public frame: games.frames.wire).
    old = " is-old" if view.get("phase") == "roll" else ""
    age = f'<span id="dice-age" class="dice-age{old}"></span>'
    if parts:
        age = marked("dice-age", age)
    out = [f'<div id="dice" class="dice" hx-swap-oob="true">{age}']
    two = view.get("dice")
    if two:
        out.extend(_die(int(d)) for d in two)
        words = _("Dice: %(first)s and %(second)s") % {"first": int(two[0]), "second": int(two[1])}
        out.append(f'<span class="visually-hidden">{conditional_escape(words)}</span>')
    elif view.get("die"):
        d = int(view["die"])
        words = _("Last roll: %(die)s") % {"die": d}
        out.append(f'{_die(d)}<span class="visually-hidden">{conditional_escape(words)}</span>')
    else:
        none = _("No roll yet")
        out.append('<span class="die-none" aria-hidden="true">–</span>'
                   f'<span class="visually-hidden">{conditional_escape(none)}</span>')
    out.append("</div>")
    return mark_safe("".join(out))


def _move_line(line) -> str:
    esc = conditional_escape
    title = f' title="{esc(line.note)}"' if line.note else ""
    swatch = ""
    if line.colour:
        swatch = f'<i class="swatch swatch-{esc(line.colour)}"></i> '
    return f'<li class="move-line" data-ply="{int(line.ply)}"{title}>{swatch}{esc(line.text)}</li>'


@register.simple_tag
def move_lines(lines) -> str:
    """``<li class="move-line" data-ply>`` for each of ``lines`` (ShownLines:
    a colour swatch, the text, the note as its title), escaped."""
    return mark_safe("".join(_move_line(line) for line in lines))


@register.simple_tag
def move_turns(turns) -> str:
    """``<li class="turn">`` (``setup`` too for turn 0) for each of ``turns``
    (record.Turns of ShownLines), its lines in an ``<ol class="turn-lines">``."""
    return mark_safe("".join(
        f'<li class="turn{" setup" if t.setup else ""}"><ol class="turn-lines">'
        + "".join(_move_line(line) for line in t.lines) + "</ol></li>"
        for t in turns
    ))


class _PartNode(template.Node):
    """``{% part %}``: its markers written once, at parse time, when its key is
    constant (a frame renders several parts on every move)."""

    def __init__(self, nodelist, key, svg):
        self.nodelist, self.key, self.svg = nodelist, key, svg
        self.ends = None
        if all(bit.is_var is False and not bit.filters for bit in key):
            self.ends = marked("".join(str(bit.var) for bit in key), "\0", svg=svg).split("\0")

    def render(self, context):
        if self.ends is not None:
            return SafeString(self.ends[0] + self.nodelist.render(context) + self.ends[1])
        key = "".join(str(bit.resolve(context)) for bit in self.key)
        return SafeString(marked(key, self.nodelist.render(context), svg=self.svg))


@register.tag
def part(parser, token):
    """``{% part key... [svg=True] %}…{% endpart %}``: what it encloses, marked as
    the part of the public frame whose id is ``key`` (its values joined:
    ``{% part "rb-score-" s.seat %}``; module docstring). Raises
    ``TemplateSyntaxError`` without a key."""
    bits = token.split_contents()[1:]
    svg = bits[-1:] == ["svg=True"]
    if svg:
        bits = bits[:-1]
    if not bits:
        raise template.TemplateSyntaxError("{% part key... [svg=True] %}")
    nodelist = parser.parse(("endpart",))
    parser.delete_first_token()
    return _PartNode(nodelist, [parser.compile_filter(bit) for bit in bits], svg)
