"""Pictures for each game's one-screen "How to play" (the top of its rules page).

Each picture is a position drawn by the game's own board code, as the match page
draws it (``games/<game>/board.html`` with ``svg.board_context`` of the engine's
public view), so the rules never show a board the site does not: a new board
look changes the pictures with it. Which positions, and their captions, the game
declares (``GameSite.rules_pictures``); they come from the engine too: a
new match, and the same match some plies later, every choice and every chance
outcome drawn by a seeded ``random.Random`` and every choice made by the "normal"
computer player (the same position every time).

``pictures(kind)`` returns the figures' markup (a ``<figure>`` each, captioned),
built once per process. Ids inside a picture carry the picture's own prefix
(``howto-<game>-<n>-``), references to them too, and nothing is marked for an
out-of-band swap, so several boards sit on one page without clashing with each
other or with a live board.
"""

from __future__ import annotations

import random
import re
from functools import cache

from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games import bots, sites, themes
from games.engine import CHANCE, get_rules
from games.folders import game_module

_ID = re.compile(r'\bid="([^"]+)"')
_REFS = re.compile(r'\b(aria-labelledby|aria-describedby)="([^"]+)"')
_HREF = re.compile(r'\bhref="#([^"]+)"')
_URL = re.compile(r"url\(#([^)]+)\)")
_OOB = re.compile(r'\s+hx-swap-oob="[^"]*"')


def _position(kind: str, players: int, plies: int, seed: int = 1):
    """The engine state ``plies`` plies (chance steps included) after a new
    ``players``-seat match, and on to the next seat's decision (past the draws
    for who starts, Rondo's first tiles, a chain in progress):
    chance outcomes drawn by Random(seed), choices by the "normal" computer player
    with the same generator, so the position looks like play."""
    rules = get_rules(kind)
    rnd = random.Random(seed)
    state = rules.new_match(players, {})
    played = 0
    while not rules.is_over(state) and (played < plies or rules.view(state, None).get("chain")
                                        or rules.to_move(state) == CHANCE):
        seat = rules.to_move(state)
        if seat == CHANCE:
            outcomes = rules.chance_outcomes(state)
            move = rnd.choices([m for m, _w in outcomes], weights=[w for _m, w in outcomes])[0]
        else:
            view = rules.view(state, seat)
            move = bots.choose_move(kind, "normal", view, seat, rules.legal_moves(state), rnd)
        state = rules.play(state, move)
        played += 1
    return state


def _own_ids(html: str, prefix: str) -> str:
    """``html`` with every id, and every reference to one, given ``prefix``."""
    html = _OOB.sub("", html)
    html = _ID.sub(lambda m: f'id="{prefix}{m.group(1)}"', html)
    html = _REFS.sub(lambda m: f'{m.group(1)}="{" ".join(prefix + i for i in m.group(2).split())}"', html)
    html = _HREF.sub(lambda m: f'href="#{prefix}{m.group(1)}"', html)
    return _URL.sub(lambda m: f"url(#{prefix}{m.group(1)})", html)


def pictures(kind: str) -> SafeString:
    """The figures of ``kind``'s "How to play" (markup, built once per process and
    language: the boards' words and the captions are the active language's).
    Raises KeyError for a game without pictures (``GameSite.rules_pictures``)."""
    return _pictures(kind, get_language())


@cache
def _pictures(kind: str, language: str | None) -> SafeString:
    declared = sites.get_site(kind).rules_pictures
    if declared is None:
        raise KeyError(kind)
    players, shots = declared
    rules = get_rules(kind)
    figures = []
    for n, (plies, caption) in enumerate(shots, start=1):
        view = rules.view(_position(kind, players, plies), None)
        # No seat marked to move: a picture, not a match (as an ended match is drawn).
        view = {**view, "turn": None, **({"mover": None} if "mover" in view else {})}
        board = game_module(kind, "svg").board_context(view)
        html = render_to_string(f"games/{kind}/board.html", {
            "board": board, "theme": themes.get(themes.PLAIN), "last_move": {}})
        figures.append(f'<figure class="howto-picture">{_own_ids(html, f"howto-{kind}-{n}-")}'
                       f"<figcaption>{escape(caption)}</figcaption></figure>")
    return mark_safe("".join(figures))
