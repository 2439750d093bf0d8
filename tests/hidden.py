"""Test helpers for hidden information: reading what a viewer received.

Shared by tests/games/test_hidden_information.py (every registered game) and
tests/games/test_rondo_hidden.py (Rondo in detail):

- ``parse`` turns an HTML fragment or page into its elements, each with its
  attributes, its ancestors' attributes and its text (facts are read from
  data attributes, never guessed from words);
- ``SHOWN`` maps a game to the reader of its markup: which of the engine's
  secret facts (``Rules.hidden``, same tuple form) an HTML text shows;
  ``SHOWN_JSON`` the same for JSON (the API's stream lines, docs/api.md);
- ``record_lines`` gives each move-list line's text by ply;
- ``RecordingLayer`` stands in for the channel layer and keeps every group
  message any module sends;
- ``silence_tasks`` keeps Celery tasks from being queued.
"""

from __future__ import annotations

import base64
from html.parser import HTMLParser

from channels.layers import InMemoryChannelLayer

from games import tasks
from games.rondo.engine import COLOURS as RONDO_COLOURS

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Element:
    def __init__(self, tag, attrs, parents):
        self.tag, self.attrs, self.parents, self.text = tag, attrs, parents, ""


class Collector(HTMLParser):
    """Every element of an HTML fragment with its attributes, its ancestors'
    attributes and its text (no colour words are searched: attributes are read)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.stack: list[Element] = []

    def handle_starttag(self, tag, attrs):
        el = Element(tag, dict(attrs), [e.attrs for e in self.stack])
        self.elements.append(el)
        if tag not in VOID:
            self.stack.append(el)

    def handle_startendtag(self, tag, attrs):
        self.elements.append(Element(tag, dict(attrs), [e.attrs for e in self.stack]))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        for el in self.stack:
            el.text += data


def parse(html: str) -> list[Element]:
    c = Collector()
    c.feed(html)
    return c.elements


def subject(fact: tuple) -> tuple:
    """What a fact (``Rules.hidden``) is about: all but its last item, the value."""
    return fact[:-1]


def record_lines(elements: list[Element]) -> dict[int, str]:
    """Move-list lines (``<li data-ply>``) by ply: their text."""
    return {int(e.attrs["data-ply"]): e.text for e in elements if e.tag == "li" and "data-ply" in e.attrs}


def seed_forms(seed_hex: str) -> list[str]:
    """The ways a match's seed (hex, as stored) could be written out, in lower
    case: hex, and base64 / URL-safe base64 of its bytes."""
    raw = bytes.fromhex(seed_hex)
    return [seed_hex.lower()] + [
        encode(raw).decode().lower() for encode in (base64.b64encode, base64.urlsafe_b64encode)
    ]


def rondo_shown(elements: list[Element]) -> set[tuple]:
    """The Rondo secrets an HTML text shows, as ``Rules.hidden`` facts: each
    rack element (``data-rack-seat``) with tiles (``data-tile-colour`` inside
    it) shows ``("rack", seat, colours)``; a board tile that is face down
    (``data-tile-space``, ``data-face-down``) and carries a colour shows
    ``("face_down", space, colour)``. (Colours outside racks and board
    tiles are refused by tests/games/test_rondo_hidden.py.)"""
    facts: set[tuple] = set()
    racks = [e for e in elements if "data-rack-seat" in e.attrs]
    for rack in racks:
        chips = [
            e.attrs["data-tile-colour"]
            for e in elements
            if "data-tile-colour" in e.attrs and any(p is rack.attrs for p in e.parents)
        ]
        if chips:
            order = sorted(chips, key=lambda c: RONDO_COLOURS.index(c) if c in RONDO_COLOURS else 99)
            facts.add(("rack", int(rack.attrs["data-rack-seat"]), tuple(order)))
    for e in elements:
        if "data-tile-colour" in e.attrs and "data-tile-space" in e.attrs and "data-face-down" in e.attrs:
            facts.add(("face_down", e.attrs["data-tile-space"], e.attrs["data-tile-colour"]))
    return facts


#: Game -> the reader of its markup (see ``rondo_shown``). A game whose engine
#: hides something needs one here; the hidden-information test says so.
SHOWN = {"rondo": rondo_shown}


def _colour_order(colours) -> tuple:
    return tuple(sorted(colours, key=lambda c: RONDO_COLOURS.index(c) if c in RONDO_COLOURS else 99))


def _rack(value) -> tuple | None:
    """A rack written as a list of colour names or as {colour: count}; None otherwise."""
    if isinstance(value, list) and all(isinstance(c, str) for c in value):
        return _colour_order(value)
    if isinstance(value, dict) and value and set(value) <= set(RONDO_COLOURS):
        return _colour_order([c for c, n in value.items() if isinstance(n, int) for _ in range(n)])
    return None


def _dicts(obj):
    """Every dict inside ``obj``, itself included."""
    stack = [obj]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            yield node
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def _json_racks(node: dict) -> set[tuple]:
    """Racks in one JSON object: a seat's ``rack`` (with its ``seat``), the
    ``private`` part's (with the view's ``viewer``), a dump's ``racks``."""
    found = []
    if "rack" in node:
        found.append((node.get("seat"), node["rack"]))
    if isinstance(node.get("private"), dict):
        found.append((node.get("viewer"), node["private"].get("rack")))
    if isinstance(node.get("racks"), list):
        found.extend(enumerate(node["racks"]))
    facts = set()
    for seat, value in found:
        tiles = _rack(value)
        if isinstance(seat, int) and tiles:
            facts.add(("rack", seat, tiles))
    return facts


def _json_face_down(node: dict) -> set[tuple]:
    """Face-down colours in one JSON object: ``face_down`` as {space: colour}
    (a view's private part) or {space: [colour, owner]} (a dump), and a
    view's ``tiles`` that name a face-down tile's colour."""
    facts = set()
    down = node.get("face_down")
    if isinstance(down, dict):
        for space, value in down.items():
            colour = value[0] if isinstance(value, list) and value else value
            if isinstance(colour, str):
                facts.add(("face_down", space, colour))
    tiles = node.get("tiles")
    if isinstance(tiles, dict):
        facts |= {("face_down", space, tile["tile_colour"]) for space, tile in tiles.items()
                  if isinstance(tile, dict) and tile.get("face_down") and tile.get("tile_colour")}
    return facts


def _json_bag(node: dict) -> set[tuple]:
    """The bag's tiles by colour, as {colour: n} or a list of five counts
    (a view's ``bag`` is a plain count and shows nothing)."""
    bag = node.get("bag")
    if isinstance(bag, dict) and set(bag) <= set(RONDO_COLOURS):
        return {("bag", tuple(bag.get(c, 0) for c in RONDO_COLOURS))}
    if isinstance(bag, list) and len(bag) == len(RONDO_COLOURS):
        return {("bag", tuple(bag))}
    return set()


def rondo_shown_json(obj) -> set[tuple]:
    """The Rondo secrets a JSON text (parsed) shows, as ``Rules.hidden``
    facts, whatever its shape: a view (``Rules.view``: a seat's ``rack``,
    the ``private`` part's ``rack`` and ``face_down``, a tile's
    ``tile_colour`` when face down) or anything dump-like (``racks``: one a
    seat; ``face_down``: {space: [colour, owner]}; ``bag``: {colour: n}).
    An empty rack shows nothing (``Rules.hidden`` names only racks that hold tiles)."""
    facts: set[tuple] = set()
    for node in _dicts(obj):
        facts |= _json_racks(node) | _json_face_down(node) | _json_bag(node)
    return facts


#: Game -> the reader of its JSON (see ``rondo_shown_json``): the API's stream lines.
SHOWN_JSON = {"rondo": rondo_shown_json}


class RecordingLayer(InMemoryChannelLayer):
    """The channel layer as the tests see it: every ``group_send`` from any
    module (games.push, accounts.sockets, matchmaking) is kept in ``sent`` as
    (group, message), then delivered in memory as usual. Install it with
    ``monkeypatch.setitem(channels.layers.channel_layers.backends, DEFAULT_CHANNEL_LAYER, layer)``."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.sent: list[tuple[str, dict]] = []

    async def group_send(self, group, message):
        self.sent.append((group, message))
        await super().group_send(group, message)


def silence_tasks(monkeypatch) -> None:
    """Queue no Celery task (turn deadlines, computer moves, resumes): the
    test drives every move itself."""
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)
