"""Roundabout's turn for ONE seat's controls (its own frame only: docs/adding-a-game.md).

``{% roundabout_turns seat_view as turns %}`` gives ``{"choices": JSON text or
"", "help": words}``: the seat's legal turns for static/js/board.js, and what
the page says about composing them (which die each step uses, what doubles
allow). A turn of two dice is composed on the board and sent once
(``{"moves": [first, second]}``). The choices of the second die depend on the
first (blocks, jumps, the capture rule: docs/rules.md "Moving", "Blocks",
"Captures"), so each first move lists what may follow it, from the engine
(``Rules.play`` then ``Rules.legal_moves``); the page re-implements no rule.
Reversals (reversing doubles) are choices too: a dart's spot is its own, the
preview shows it facing the other way, and a second reversal (which ends the
turn: at most two, docs/rules.md "Reversing doubles") or a pass may follow; a
page that opens after one reversal offers the second on the board too.
Golden Rule offers, pass, accept and decline stay buttons.

Shape (viewBox units 0..100, games/roundabout/svg.py): ``{"choices": [...],
"table": [...]}``, the first die's choices and the second's (each once; a first
choice's "n" lists indices into the table), each::

    {"m": "3r5", "k": "dart 3", "kl": "Dart 3 on ring 2, bar 5",
     "l": "Dart 3: 5 around the ring to ring 2, bar 10",
     "h": [x, y, r], "t": [x, y], "fs": 21,   # hit circle at the dart; fs: the space it leaves
     "hs": 2.5, "fr": 101.25,                 # the dart's body (a tap in it means it), and
                                              # its angle at h: its highlight is its outline
     "d": 5, "w": "ring",                                  # the die it uses, the way
     "g": "ra-red", "gc": "red", "gt": "translate(x y) rotate(deg)",
     "e": 1,             # the turn ends after it (the second die cannot be used)
     "x": "pass",        # or: may end after it by passing (the second die is optional)
     "n": [3, 4, 9]}     # the second die's choices after it: indices into "table"

A reversal: ``{"m": "rev 3", "k": "dart 3", "w": "turn", "t": the dart's own
spot, "fs" its space (dimmed while the preview shows it turned), "gt": the
dart turned round, ...}`` (no "d").
"""

from __future__ import annotations

import functools
import itertools

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from games.engine import get_rules
from games.frames.wire import choices_json, part
from games.roundabout import words
from games.roundabout.engine.board import CW
from games.roundabout.engine.moves import PASS
from games.roundabout.engine.view import describe_move
from games.roundabout.svg import _dart_transform, dart_rotation, space_xy
from games.templatetags.board_parts import last_move_marks

register = template.Library()

HIT_RADIUS = 6.5  # viewBox units: 48 px where the board is about 366 px wide (390 px phone)
#: The dart's body (its arrow lies within 3 units of its centre), viewBox units: a tap
#: this near a dart means that dart, never "Which one?" (board.js). Under half of the
#: closest two spaces' distance (ring 1's neighbouring bars, 5.46 apart), so two bodies
#: never overlap: 9 px on a 390 px phone, 17 px on a desktop's 690 px board.
BODY_RADIUS = 2.5


_XY = tuple(space_xy(s) for s in range(80))
_transform = functools.cache(_dart_transform)


def _choice(d: dict, colour: str, facing: str, w: dict) -> dict:
    fx, fy = _XY[d["from"]]
    return {
        "m": d["move"], "k": f"dart {d['dart']}", "kl": words.dart_at(d["dart"], d["from"], w),
        "l": words.label(d, w), "h": [fx, fy, HIT_RADIUS], "hs": BODY_RADIUS,
        "fr": dart_rotation(d["from"], facing),
        "t": _XY[d["to"]], "fs": d["from"], "d": d["die"], "w": d["direction"],
        "g": f"ra-{colour}", "gc": colour, "gt": _transform(d["to"], facing),
    }  # fmt: skip


def _turn_choice(d: dict, at: int, colour: str, facing: str, turned: str, w: dict) -> dict:
    """A reversal (reversing doubles) as a choice: its spot is the dart's own, and
    the preview is the dart facing the other way ("w": "turn", no die)."""
    x, y = _XY[at]
    return {
        "m": d["move"], "k": f"dart {d['dart']}", "kl": words.dart_at(d["dart"], at, w),
        "l": words.label(d, w), "h": [x, y, HIT_RADIUS], "hs": BODY_RADIUS, "fr": dart_rotation(at, facing),
        "t": (x, y), "fs": at, "w": "turn",
        "g": f"ra-{colour}", "gc": colour,
        "gt": _transform(at, turned),
    }  # fmt: skip


def _dart_choices(rules, state, colour: str, w: dict) -> tuple[list[dict], bool]:
    """The dart moves and reversals of ``state`` as choices, and whether "pass"
    is legal there."""
    out, can_pass = [], False
    n = len(state.pos) // state.players
    for move in rules.legal_moves(state):
        if move is PASS:
            can_pass = True
        if move.kind not in ("dart", "reverse"):
            continue
        idx = state.mover * n + move.dart
        facing = "cw" if state.face[idx] == CW else "ccw"
        if move.kind == "reverse":
            out.append(_turn_choice(describe_move(state, move), state.pos[idx], colour, facing,
                                    "ccw" if facing == "cw" else "cw", w))
        else:
            out.append(_choice(describe_move(state, move), colour, facing, w))
    return out, can_pass


def _help(view: dict, can_reverse: bool) -> str:
    """The composer's words for ``view`` (the seat's view, in its "move"
    phase); ``can_reverse``: a dart may be turned around now (say so only then)."""
    a, b = view["dice"]
    if len(view["unused"]) == 1:
        return _("The last step uses the %(die)s left: pick a dart on the board, then a highlighted spot, "
                 "then Confirm.") % {"die": view["unused"][0]}
    steps = _("Pick a dart on the board, then a highlighted spot (its number is the die it uses); then the "
              "same for the second step; then Confirm. Undo takes a step back.")
    if a != b:
        return _("Step 1 uses one die, step 2 the other, in either order (%(a)s and %(b)s). %(steps)s") % {
            "a": a, "b": b, "steps": steps}
    if view["jumping"]:
        text = _("Doubles: each step moves a dart %(die)s (no extra move, no doubled move); on jumping "
                 "doubles a dart may also pass over blocks. %(steps)s")
    elif can_reverse:
        text = _("Doubles: each step moves a dart %(die)s (no extra move, no doubled move); on reversing "
                 "doubles you may instead turn one or two darts around: pick a dart, then its own spot "
                 "(marked ↺). %(steps)s")
    else:
        text = _("Doubles: each step moves a dart %(die)s (no extra move, no doubled move). %(steps)s")
    return text % {"die": a, "steps": steps}


@register.filter
def has_kind(legal: list[dict], kind: str) -> bool:
    """Whether any of the seat's legal moves (``describe_move`` dicts) is of ``kind``
    ("reverse": reversing doubles offer a turn only when a dart can turn)."""
    return any(m.get("kind") == kind for m in legal)


@register.simple_tag
def roundabout_turns(seat_view: dict) -> dict:
    if seat_view.get("phase") != "move":
        return {"choices": "", "help": ""}
    rules = get_rules("roundabout")
    state = rules.load(seat_view["state"])
    mover = state.mover
    colour = next(s["colour"] for s in seat_view["seats"] if s["seat"] == mover)
    w = words.texts()  # the active language's words, looked up once for every choice
    first, _can_pass = _dart_choices(rules, state, colour, w)
    table, index = [], {}  # second-die choices shared by several first moves, once each
    if len(state.unused) == 2:
        for c in first:
            after = rules.play(state, c["m"])
            if rules.to_move(after) != mover or after.phase != "move":
                c["e"] = 1
                continue
            seconds, can_pass = _dart_choices(rules, after, colour, w)
            c["n"] = []
            for c2 in seconds:
                key = (c2["m"], c2.get("fs"), c2["l"])
                if key not in index:
                    index[key] = len(table)
                    table.append(dict(c2, e=1))
                c["n"].append(index[key])
            if can_pass:
                c["x"] = str(PASS)
            elif not c["n"]:
                c["e"] = 1
    else:
        for c in first:
            c["e"] = 1
    if not first:
        return {"choices": "", "help": ""}
    if state.reversed:  # one dart turned: one more may turn (ending the turn), or pass
        return {"choices": choices_json({"choices": first, "table": table}),
                "help": _("You turned one dart. You may turn one more: pick it, then its own spot "
                          "(marked ↺), then Confirm. Or end your turn with Pass.")}
    can_reverse = any(m.kind == "reverse" for m in rules.legal_moves(state))
    return {"choices": choices_json({"choices": first, "table": table}),
            "help": _help(seat_view, can_reverse)}



@register.simple_tag
def roundabout_pieces(board: dict, last_move) -> str:
    """The board's changing layers, each a part of the public frame
    (games.frames.wire; the board template's comment lists them): each
    territory's mark, each territory colour's ringers and blocks, the last
    move's marks, each dart (empty once off the board) and the hub's dice.
    Built in Python: as template loops over 40 darts and 4 territories they
    cost several times Ludo's whole frame (docs/benchmarks.md). ``board``:
    ``games.roundabout.svg.board_context``; ``last_move``: as
    ``board_parts.last_move_marks`` takes it. Raises ``KeyError`` for a
    ``board`` of another shape."""
    out = []
    add = out.append
    territories = board["territories"]
    for i, t in enumerate(territories):
        mark = ""
        if t["turn"] or t["status"] in ("left", "empty"):
            mark = f'<path class="ra-mark {t["status"]}{" turn" if t["turn"] else ""}" d="{t["d"]}"/>'
        add(_layer(f"ra-t{i}", mark))
    add("\n")
    for i, t in enumerate(territories):
        add(_layer(f"ra-l{i}", _ringers_and_blocks(board, t["colour"])))
    add(f'\n<g id="ra-last">{part("ra-last", last_move_marks(last_move), svg=True)}</g>\n')
    for slot in board["slots"]:
        d = slot["dart"]
        dart = _dart_markup(d["colour"], d["captured"], d["space"], d["x"], d["y"], d["transform"],
                            d["dart"]) if d else ""
        add(_layer(f"ra-d{slot['key']}", dart))
    add("\n")
    dice = board["dice"]
    hub = ""
    if dice:
        a, b = dice[0], dice[1]
        hub = (f'<g class="ra-dice" transform="translate(50 50)"><g data-die="{a}"><text y="-1.5">{a}</text>'
               f'<line class="ra-die-strike" x1="-2" y1="-1.5" x2="2" y2="-1.5"/></g><g data-die="{b}">'
               f'<text y="3.2">{b}</text>'
               '<line class="ra-die-strike" x1="-2" y1="3.2" x2="2" y2="3.2"/></g></g>')
    add(_layer("ra-hub-dice", hub))
    return mark_safe("".join(out))


def _layer(key: str, inner: str) -> str:
    """``<g id="key">`` holding ``inner``, a part of the public frame (games.frames.wire)."""
    return f'<g id="{key}">{part(key, inner, svg=True)}</g>'


def _ringers_and_blocks(board: dict, colour: str) -> str:
    out = []
    for r in board["ringers"]:
        if r["colour"] == colour:
            full = " full" if r["length"] >= r["needed"] else ""
            out.append(f'<path class="ra-ringer {colour}{full}" d="{r["d"]}"/>')
    for b in board["blocks"]:
        if b["colour"] == colour:
            out.append(f'<line class="ra-block {colour}" x1="{b["x1"]}" y1="{b["y1"]}" '
                       f'x2="{b["x2"]}" y2="{b["y2"]}"/>')
    return "".join(out)


@functools.lru_cache(maxsize=4096)
def _dart_markup(colour: str, captured: bool, space: int, x, y, transform: str, dart: int) -> str:
    caught = f'<circle class="ra-caught" cx="{x}" cy="{y}" r="3.3"/>' if captured else ""
    return (f'<g class="ra-dart {colour}{" captured" if captured else ""}" data-space="{space}">{caught}'
            f'<use href="#ra-{colour}" transform="{transform}"/><text x="{x}" y="{y}">{dart}</text></g>')


_FORM = ('<li><form method="post" action="{action}" ws-send>{csrf}<input type="hidden" name="move" '
         'value="{move}"><input type="hidden" name="version" value="{version}">')


@register.simple_tag(takes_context=True)
def roundabout_buttons(context, legal: list[dict], composed) -> str:
    """The seat's legal choices as plain forms (``<div class="ra-controls">``;
    the controls template's comment says what it shows and in which order),
    each posting its move without JavaScript and sent over the socket with
    htmx's ws-send. Built in Python: as template loops they were most of a
    Roundabout seat frame's cost (docs/benchmarks.md). ``legal``: the seat's
    ``view["moves"]``; ``composed``: truthy when the board composes the turn (the dart
    buttons fold into one disclosure when more than one dart can move).
    Reads ``match``, ``urls`` and the CSRF token from the context."""
    form = functools.partial(
        _FORM.format, action=escape(context["urls"]["move"]), version=int(context["match"].version),
        csrf=CsrfTokenNode().render(context))
    groups = [(kind, list(ms)) for kind, ms in itertools.groupby(legal, key=lambda m: m["kind"])]
    w = words.texts()
    out = ['<div class="ra-controls">']
    for kind, ms in groups:
        if kind != "dart":
            out.append(_group(kind, ms, form, w))
    for kind, ms in groups:
        if kind == "dart":
            markup = _group(kind, ms, form, w)
            if composed and len({m["dart"] for m in ms}) > 1:
                long, short = escape(_("Or move a dart with buttons")), escape(_("Dart buttons"))
                markup = (f'<details class="ra-group ra-dart-list"><summary><span class="ra-long">{long}'
                          f'</span><span class="ra-short">{short}</span></summary>{markup}</details>')
            out.append(markup)
    out.append("</div>")
    return mark_safe("".join(out))


def _group(kind: str, ms: list[dict], form, w: dict) -> str:
    """One kind's forms; ``w``: the active language's words (``words.texts()``)."""
    out = []
    add = out.append
    if kind == "dart":
        by_dart = [(d, list(g)) for d, g in itertools.groupby(ms, key=lambda m: m["dart"])]
        group = escape(_("Move a dart"))
        add(f'<div class="ra-darts" role="group" aria-label="{group}">')
        for dart, dms in by_dart:
            where = escape(words.where(dms[0], w))
            add(f'<details class="ra-dart-choice"{" open" if len(by_dart) == 1 else ""}><summary>'
                f'{escape(words.dart_name(dart, w))} '
                f'<span class="muted">{where}</span></summary><ul class="move-buttons">')
            for m in dms:
                add(form(move=escape(m["move"])))
                label = escape(words.label(m, w))
                add(f'<button type="submit" data-to-space="{m["to"]}" aria-label="{label}">'
                    f'{escape(words.short(m, w))}</button></form></li>')
            add("</ul></details>")
        add("</div>")
    elif kind == "reverse":
        legend = escape(_("Reversing doubles: turn a dart around"))
        add(f'<fieldset class="ra-group"><legend>{legend}</legend><ul class="move-buttons">')
        for m in ms:
            label = escape(words.label(m, w))
            add(form(move=escape(m["move"])))
            name = escape(words.dart_name(m["dart"], w))
            add(f'<button type="submit" aria-label="{label}" title="{label}">{name}</button></form></li>')
        add("</ul></fieldset>")
    elif kind == "offer":
        # Translators: the second follows the first ("Golden Rule: offer this roll") where there is room.
        golden, offer = escape(_("Golden Rule")), escape(_(": offer this roll"))
        add(f'<details class="ra-group ra-offers"><summary>{golden}<span class="ra-long">{offer}'
            '</span></summary><ul class="move-buttons">')
        for m in ms:
            add(form(move=escape(m["move"])))
            add(f'<button type="submit" class="secondary">{escape(words.label(m, w))}</button></form></li>')
        add("</ul></details>")
    else:
        add('<ul class="move-buttons">')
        for m in ms:
            secondary = ' class="secondary"' if m["kind"] in ("pass", "decline") else ""
            add(form(move=escape(m["move"])))
            add(f'<button type="submit"{secondary}>{escape(words.label(m, w))}</button></form></li>')
        add("</ul>")
    return "".join(out)
