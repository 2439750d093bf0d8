"""Rondo on the site (docs/adding-a-game.md, "The folder"): what the shared pages,
forms and admin show of the game (``games.sites.GameSite``)."""

from django import forms

from games.sites import GameSite


def option_lines(options: dict) -> list[str]:
    """The lobby's words for a room's Rondo options."""
    lines = []
    if "side" in options:
        lines.append(f"{str(options['side']).capitalize()} side of the board")
    if "one_change" in options:
        lines.append("One-change chain rule " + ("on" if options["one_change"] else "off"))
    return lines


SITE = GameSite(
    name="Rondo",
    picture="img/rondo-board.svg",
    blurb="Lay coloured tiles in a row across a round board; a tile on its own colour scores the space.",
    turn_seconds=90,
    room_options={
        "side": forms.ChoiceField(label="Rondo: board side", choices=[("blue", "Blue"), ("red", "Red")],
                                  initial="blue"),
        "one_change": forms.BooleanField(label="Rondo: one-change chain rule", required=False, initial=True),
    },
    option_lines=option_lines,
    move_phrase="place tiles or draw",
    chance_title="Fair tile draws",
    chance_step="tile draw",
    scripts=("js/rondo.js",),
    has_dice=False,
    stylesheets=("css/rondo.css",),
    rules_pictures=(2, (
        (0, "The start: an empty board. The first chain must begin next to the centre."),
        (40, "Some turns later: chains of tiles run out from the centre; a tile face up on "
             "its own colour scores the space's number."),
    )),
    credit="Designed by Reiner Knizia, published by Schmidt Spiele (2012).",
    credit_name="RONDO",
    board_keys=(
        ("N or →", "next space the chain may take"),
        ("P or ←", "previous space"),
        ("Enter or Space", "open a space's tiles, or send the chain"),
        ("U or Backspace", "undo the last placement"),
        ("Esc", "clear the chain (as Clear chain does)"),
    ),
)
