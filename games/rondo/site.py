"""Rondo on the site (docs/adding-a-game.md, "The folder"): what the shared pages,
forms and admin show of the game (``games.sites.GameSite``).

Every word a person reads is marked for translation (the lazy forms: this module
is imported once per process, the words are read in each request's language;
the catalogue is this folder's ``locale/``; terms: Schmidt Spiele's German
edition and docs/glossary.md)."""

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.sites import GameSite


def option_lines(options: dict) -> list[str]:
    """The lobby's words for a room's Rondo options."""
    lines = []
    if "side" in options:
        if str(options["side"]) == "red":
            lines.append(_("Red side of the board"))
        elif str(options["side"]) == "blue":
            lines.append(_("Blue side of the board"))
        else:
            lines.append(f"{str(options['side']).capitalize()} side of the board")
    if "one_change" in options:
        on = options["one_change"]
        lines.append(_("One-change chain rule on") if on else _("One-change chain rule off"))
    return lines


SITE = GameSite(
    name="Rondo",  # a brand name: the same in every language (docs/glossary.md)
    picture="img/rondo-board.svg",
    blurb=gettext_lazy("Lay coloured tiles in a row across a round board; "
                       "a tile on its own colour scores the space."),
    turn_seconds=90,
    room_options={
        "side": forms.ChoiceField(label=gettext_lazy("Rondo: board side"),
                                  choices=[("blue", pgettext_lazy("rondo board side", "Blue")),
                                           ("red", pgettext_lazy("rondo board side", "Red"))],
                                  initial="blue"),
        "one_change": forms.BooleanField(label=gettext_lazy("Rondo: one-change chain rule"), required=False,
                                         initial=True),
    },
    option_lines=option_lines,
    # Translators: the match status "<name> to place tiles or draw."
    move_phrase=pgettext_lazy("rondo status: <name> to …", "place tiles or draw"),
    chance_title=gettext_lazy("Fair tile draws"),
    # Translators: one chance step of Rondo, as in "Every tile draw of this match comes from a secret seed".
    chance_step=pgettext_lazy("rondo chance step", "tile draw"),
    scripts=("js/rondo.js",),
    has_dice=False,
    stylesheets=("css/rondo.css",),
    rules_pictures=(2, (
        (0, gettext_lazy("The start: an empty board. The first chain must begin next to the centre.")),
        (40, gettext_lazy("Some turns later: chains of tiles run out from the centre; a tile face up on "
                          "its own colour scores the space's number.")),
    )),
    credit=gettext_lazy("Designed by Reiner Knizia, published by Schmidt Spiele (2012)."),
    credit_name="RONDO",
    board_keys=(
        (gettext_lazy("N or →"), gettext_lazy("next space the chain may take")),
        (gettext_lazy("P or ←"), gettext_lazy("previous space")),
        (gettext_lazy("Enter or Space"), gettext_lazy("open a space's tiles, or send the chain")),
        (gettext_lazy("U or Backspace"), gettext_lazy("undo the last placement")),
        ("Esc", gettext_lazy("clear the chain (as Clear chain does)")),
    ),
)
