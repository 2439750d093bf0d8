"""Ludo on the site (docs/adding-a-game.md, "The folder"): what the shared pages,
forms and admin show of the game (``games.sites.GameSite``)."""

from django import forms

from games.ludo.svg import GRID as BOARD_SIZE
from games.sites import GameSite, dice_board_keys
from games.themes import Theme


def option_lines(options: dict) -> list[str]:
    """The lobby's words for a room's Ludo options."""
    if "autoplay_forced" not in options:
        return []
    return ["Forced moves play automatically" if options["autoplay_forced"] else "Forced moves by hand"]


def seat_phrase(seat: dict) -> str:
    """The seats list's cell of a Ludo seat: its pieces home ("2/4 home")."""
    return f"{seat['home']}/4 home" if seat.get("home") is not None else ""


SITE = GameSite(
    name="Ludo",
    picture="img/ludo-board.svg",
    blurb="Race four pieces round the board and up your own lane; land on a rival to send it home.",
    turn_seconds=60,
    fixed_turn_seconds=60,  # the Ludo rule text "Game settings and rooms"
    room_options={
        "autoplay_forced": forms.BooleanField(label="Ludo: play a forced move automatically",
                                              required=False, initial=True),
    },
    option_lines=option_lines,
    themes=(
        Theme("south_asia", "Map: South Asia", centre=(80.0, 21.0), span=34.0, size=BOARD_SIZE),
        Theme("europe", "Map: Europe", centre=(10.0, 50.0), span=30.0, size=BOARD_SIZE),
    ),
    stylesheets=("css/ludo.css",),
    phase_phrases={"roll": "roll"},
    seat_phrase=seat_phrase,
    rules_pictures=(4, (
        (0, "The start: four pieces in each player's base, the corner of their colour. "
            "A 6 brings a piece out onto its start cell, beside the base."),
        (80, "Some turns later: pieces race clockwise round the track; each colour's "
             "home lane (its coloured arm) leads to the centre. Stars are safe cells."),
    )),
    credit="Board concept and design by Mohammad Asif.",
    board_keys=dice_board_keys("piece", "roll the die"),
)
