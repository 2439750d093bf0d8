"""Each game's place on the site, read from its folder's ``site.py``
(docs/adding-a-game.md): ``SITE``, a ``GameSite``, holds what the shared pages,
forms and admin need to know of a game, so that code outside the game's folder
asks here and never names a game.

    from games import sites
    sites.get_site("ludo").name   # "Ludo"
    sites.choices()               # [("ludo", "Ludo"), ("roundabout", "Roundabout"), ...]
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy

from games.engine import UnknownGameError, listed_games
from games.folders import game_module

if TYPE_CHECKING:
    from games.themes import Theme


def _no_option_lines(options: dict) -> list[str]:
    return []


def _no_seat_phrase(seat: dict) -> str:
    return ""


def dice_board_keys(one: str = "piece", roll: str = "roll") -> tuple[tuple[str, str], ...]:
    """The board's keyboard help of a game of dice and pieces: (keys, words) lines, the
    pieces called ``one`` ("dart") and the roll ``roll`` ("roll the dice")."""
    return (
        ("R", roll),
        ("N or →", f"next {one}"),
        ("P or ←", f"previous {one}"),
        ("T or ↓ ↑", f"cycle the selected {one}'s destinations"),
        ("Enter or Space", "select, then confirm"),
        ("U or Backspace", "undo the last step"),
        ("Esc", "cancel"),
    )


@dataclass(frozen=True)
class GameSite:
    """What the site shows of one game.

    - ``name``: its display name ("Ludo"), the only place the site spells it.
    - ``turn_seconds``: seconds per decision of a new match (docs/rules.md
      "Turn timer"); ``settings.PARLOUR_TURN_SECONDS[kind]`` overrides it.
    - ``fixed_turn_seconds``: seconds a live room's or challenge's match
      always gives (the form's live choice is ignored; turn-based days apply
      to every game), or None: it picks one of ``time_controls.LIVE_SECONDS``.
    - ``room_options``: the create-a-room form's fields for the engine's
      options, option name -> form field (the field's cleaned value is the
      option's value). Names are fields of one shared form, so no two games
      may use the same name.
    - ``option_lines``: options dict -> the lobby's lines about them.
    - ``themes``: board themes it offers besides the plain board (games.themes).
    - The match page's words: ``move_phrase`` ("<name> to move a piece."),
      what its chance steps are called (``chance_title``, the heading of the
      fairness note, and ``chance_step``, one of them), and ``scripts``, the
      static files of its board's own scripts, loaded after ``js/match.js``.
    - ``has_dice``: whether its chance steps are dice the page draws (``#dice``):
      the match page offers the dice style setting only then (Rondo draws tiles).
    - The play page's card (README "The play page"): ``picture``, the static
      path of a small picture of its board (SVG, about 150 px square; empty:
      the card has none), and ``blurb``, one sentence on how it plays.
    - ``stylesheets``: the static paths of its board's and controls' own styles
      (``css/<game>.css`` in its folder), loaded after the shared ones by every
      page that draws its board: the match, replay and rules pages.
    - The status and seats words of the match and replay pages: ``phase_phrases``,
      view phase -> what the seat to move must do ("roll": "<name> to roll."; any
      other phase: ``move_phrase``, ``to_move_phrase``), and ``seat_phrase``, a
      seat's public view (one of the view's ``seats``) -> its row's cell in the
      seats list ("2/4 home"; empty: no cell).
    - The about page's credit: ``credit``, who designed (and published) the game
      (empty: none), under ``credit_name`` (its name as the credit spells it;
      empty: ``name``).
    - ``rules_pictures``: the pictures of its rules page's "In one screen"
      (games.howto): (players, ((plies played from the start, caption), ...)),
      or None for none.
    - ``board_keys``: the match page's list of the board's keyboard shortcuts, in the
      game's words: (keys, words) pairs ("N or →", "next dart"), rendered once with the
      page (an inert <template id="board-key-words">, dt and dd) and read by static/js/board/keys.js;
      ``dice_board_keys()`` for games of dice and pieces (the default).
    - ``piece_word``: what the board's hints call a piece ("Choose a highlighted
      dart."; default "piece"), the template's data-piece, read by static/js/board/keys.js.
    """

    name: str
    turn_seconds: int = 60
    fixed_turn_seconds: int | None = None
    room_options: Mapping[str, forms.Field] = field(default_factory=dict)
    option_lines: Callable[[dict], list[str]] = _no_option_lines
    themes: tuple[Theme, ...] = ()
    move_phrase: str = "move a piece"
    chance_title: str = gettext_lazy("Fair dice")
    chance_step: str = "roll"
    scripts: tuple[str, ...] = ()
    has_dice: bool = True
    picture: str = ""
    blurb: str = ""
    stylesheets: tuple[str, ...] = ()
    phase_phrases: Mapping[str, str] = field(default_factory=dict)
    seat_phrase: Callable[[dict], str] = _no_seat_phrase
    rules_pictures: tuple[int, tuple[tuple[int, str], ...]] | None = None
    credit: str = ""
    credit_name: str = ""
    board_keys: tuple[tuple[str, str], ...] = field(default_factory=dice_board_keys)
    piece_word: str = "piece"

    def to_move_phrase(self, view: Mapping) -> str:
        """What the seat to move must do in the engine view ``view``, for the
        status's "<name> to <phrase>.": its phase's words, else ``move_phrase``."""
        return self.phase_phrases.get(view.get("phase"), self.move_phrase)


@functools.cache
def get_site(kind: str) -> GameSite:
    """The ``SITE`` of game ``kind``'s folder (``<package>.site``), imported
    once per process. Raises ``UnknownGameError`` for an unregistered game."""
    return game_module(kind, "site").SITE


def kinds() -> tuple[str, ...]:
    """The registered games, in the order the site lists them (``games.engine.GAMES``
    first, then any registered later)."""
    return listed_games()


def choices() -> list[tuple[str, str]]:
    """(kind, display name) of every registered game, in the site's order;
    read at call time, so a form built from it offers the games registered now."""
    return [(kind, get_site(kind).name) for kind in listed_games()]


def name(kind: str) -> str:
    """Game ``kind``'s display name; ``kind`` itself for a game not registered
    (a record of a game the site no longer has still shows)."""
    try:
        return get_site(kind).name
    except UnknownGameError:
        return kind


def turn_seconds(kind: str) -> int:
    """Seconds per decision of a new ``kind`` match: ``PARLOUR_TURN_SECONDS[kind]``
    if the settings name it, else the game's own ``turn_seconds``."""
    return settings.PARLOUR_TURN_SECONDS.get(kind) or get_site(kind).turn_seconds


def and_list(words: list[str]) -> str:
    """"Ludo", "Ludo and Rondo", "Ludo, Roundabout and Rondo"."""
    words = [str(w) for w in words]  # a game's name may be a lazy translation (its site.py)
    return " and ".join(filter(None, [", ".join(words[:-1]), words[-1]])) if words else ""


def validate_kind(value: str) -> None:
    """A model or form validator: raises ``ValidationError`` unless ``value``
    names a registered game."""
    if value not in listed_games():
        raise ValidationError("%(value)r is not a game of this site.", code="invalid_choice",
                              params={"value": value})
