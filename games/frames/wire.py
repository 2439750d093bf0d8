"""What travels to a match page: part markers, delta updates, messages, the heartbeat.

Delta updates: a change's public update carries only the parts of the page it changed.

A public frame (games.frames.render) marks its *parts*, the elements an update may
replace on their own, with HTML comments that never reach a browser (written
only by ``part``, and ``{% part %}`` in templates: games/templatetags/board_parts.py)::

    <!--@o:dice--><div id="dice" ...>...</div><!--/dice-->          an element, by its id
    <!--@s:lp-red-0--><g class="lb-pc red" ...>...</g><!--/lp-red-0-->
                                       the content of the SVG element id="lp-red-0"

A part may hold parts of its own (the Ludo board its seats' words, marks, pieces and
badges; the dice their age mark; the seats list each seat's turn mark), one
level deep. ``update`` compares a change's frame with the one this
process sent for the version before (``_sent``, per process and per match) and
keeps, in the frame's order:

- a part whose markup changed, whole; but of a part with parts inside, only
  those inside that changed, as long as the rest of it (its *shell*) and the
  names of the parts inside are the same; else the whole part;
- every part of its own content (``o``: the element with ``hx-swap-oob`` added;
  ``s``: inside ``<svg hx-swap-oob="innerHTML:#id">``, so the browser parses it
  as SVG; htmx's WebSocket extension swaps each top-level element of a message);
- everything outside the parts, always: the move list's new lines and
  ``#frame-version``.

A last-move part that only says "keep the marks shown" (games.marks.KEEP) is
left out and counts as unchanged.

Without the previous version's frame (a new process, another process sent it,
or an earlier frame is still in flight), or when the frame's parts are not the
same by name and place (a seat left: its pieces are gone), the update is the
whole frame. The page
(static/js/match.js) applies updates one version after another and asks for a
snapshot when one is missing, so a delta only ever meets the page it was cut
for. Connects, reconnects and those requests get ``strip`` of a full frame.
README "How live play works" says the same for players.
"""

from __future__ import annotations

import json
import re

from django.utils.safestring import mark_safe

from games.frames.cache import Kept

#: A part's markers: "@o:" or "@s:" and its id, where it opens; "/" and its id, where it closes.
_TOKEN = re.compile(r"<!--(@[os]:|/)([\w-]+)-->")
_MARKER = re.compile(r"<!--(?:@[os]:|/)[\w-]+-->")
_FIRST_TAG = re.compile(r"^\s*<[\w-]+")

#: The last-move marks' "keep the marks shown" (board_parts.last_move_marks of games.marks.KEEP).
KEEP_MARKS = '<g class="lm lm-keep"></g>'

KEPT = 512  # matches whose last frame a process keeps


def part(key: str, html: str, svg: bool = False) -> str:
    """``html`` marked as part ``key`` of the public frame: the only writer of
    part markers. ``svg`` False: ``html`` is the element with id ``key``
    (``<!--@o:key-->html<!--/key-->``); True: it is the content of the SVG
    element with id ``key`` (``<!--@s:key-->html<!--/key-->``). ``key``: letters,
    digits, "_" and "-"."""
    return f"<!--@{'s' if svg else 'o'}:{key}-->{html}<!--/{key}-->"


def strip(html: str) -> str:
    """``html`` without its part markers: what a full frame or a page sends."""
    return _MARKER.sub("", html) if "<!--" in html else html


def _alone(kind: str, key: str, html: str) -> str:
    """Part ``key`` as a swap of its own (an inner part: the page has its element)."""
    if kind == "s":
        return f'<svg hx-swap-oob="innerHTML:#{key}">{html}</svg>'
    return _FIRST_TAG.sub(lambda m: m.group(0) + ' hx-swap-oob="true"', html, count=1)


def _delta(new: list[str], old: list[str]) -> tuple[str, list[str]]:
    """The update from the split frame ``new`` (``_TOKEN.split``: text, mark,
    id, text, ...) for a page showing ``old``, split alike with the same
    marks and ids; and what the page shows afterwards, split alike."""
    out = [new[0]]
    shown = list(new)
    depth, start = 0, 0
    # Each marker: new[m] its mark, new[m + 1] its id, new[m + 2] the text after it.
    for m in range(1, len(new), 3):
        if new[m] != "/":
            depth += 1
            if depth == 1:
                start = m
            continue
        depth -= 1
        if depth:
            continue
        # A part from the marker at ``start`` to this one: its texts are new[start + 2 : m : 3].
        opens = [j for j in range(start + 3, m, 3) if new[j] != "/"]
        if not opens:  # no part inside: it is sent when it changed
            if new[start + 2] != old[start + 2]:
                out.append(new[start + 2])
        else:
            inside = {j + 2 for j in opens}
            if any(new[t] != old[t] for t in range(start + 2, m, 3) if t not in inside):
                out.append("".join(new[start + 2:m:3]))  # its shell changed: all of it
            else:
                for j in opens:
                    body = new[j + 2]
                    if body == KEEP_MARKS or body == old[j + 2]:
                        shown[j + 2] = old[j + 2]
                    else:
                        out.append(_alone(new[j][1], new[j + 1], body))
        out.append(new[m + 2])  # the text after the part
    return "".join(out), shown


#: Per match: (version, its parts' marks and ids, what its page shows, split as ``_delta`` splits).
_sent = Kept(KEPT)


def _newer(kept: tuple, sent: tuple) -> bool:
    return kept[0] < sent[0]


def update(match_key: tuple, version: int, frame: str) -> str:
    """The update to send for ``version`` of the match ``match_key`` (any
    hashable naming one match), from its full marked ``frame``: the parts
    that changed since ``version - 1`` when this process sent that one (and
    the frame's parts are the same, by name and place), else the whole
    frame (markers stripped either way)."""
    pieces = _TOKEN.split(frame)
    marks = pieces[1::3] + pieces[2::3]
    previous = _sent.get(match_key)
    if previous is not None and previous[0] == version - 1 and previous[1] == marks:
        out, shown = _delta(pieces, previous[2])
    else:
        out, shown = "".join(pieces[0::3]), pieces
    _sent.put(match_key, (version, marks, shown), _newer)
    return out


#: The most a pushed WebSocket message carries when it packs several frames
#: (``pack``), in bytes of UTF-8. A frame larger than this travels alone; the
#: transport's limit is config.servers.WS_MAX_MESSAGE (256 KB).
MESSAGE_BYTES = 48 * 1024


def pack(frames: list[str]) -> list[str]:
    """``frames`` (HTML fragments, in order) as WebSocket messages: adjacent
    frames joined while a message stays within ``MESSAGE_BYTES``, so a socket
    usually gets one message per change (socket writes are much of a move's
    cost: docs/benchmarks.md) yet never one the server cannot send (a
    Roundabout seat's choices after a 2 and a 1, with the board, came to
    70 KB). Empty frames are dropped."""
    messages: list[str] = []
    size = 0
    for frame in frames:
        if not frame:
            continue
        n = len(frame.encode())
        if messages and size + n <= MESSAGE_BYTES:
            messages[-1] += frame
            size += n
        else:
            messages.append(frame)
            size = n
    return messages


def choices_json(choices: list) -> str:
    """``choices`` (a seat's board choices: games/templatetags/board_parts.py) as
    JSON safe to place as an element's text: ``<``, ``>`` and ``&`` escaped the
    way ``json_script`` does, quotes left alone (a tenth of the size of an
    attribute's ``&quot;``)."""
    text = json.dumps(choices, separators=(",", ":"))
    return mark_safe(text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e"))


#: The match socket's heartbeat (games/consumers.py): sent when a socket has sent
#: nothing for settings.PARLOUR_HEARTBEAT_SECONDS; static/js/match.js drops it
#: unswapped and shows "Live" only while frames (this one included) arrive.
HEARTBEAT_FRAME = '<div id="heartbeat" hidden></div>'
