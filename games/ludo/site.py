"""Ludo on the site (docs/adding-a-game.md, "The folder"): what the shared pages,
forms and admin show of the game (``games.sites.GameSite``).

Every word a person reads is marked for translation (the lazy forms: this module
is imported once per process, the words are read in each request's language;
the catalogue is this folder's ``locale/``)."""

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.ludo.svg import GRID as BOARD_SIZE
from games.sites import GameSite
from games.themes import Theme


def option_lines(options: dict) -> list[str]:
    """The lobby's words for a room's Ludo options."""
    if "autoplay_forced" not in options:
        return []
    return [_("Forced moves play automatically") if options["autoplay_forced"] else _("Forced moves by hand")]


def seat_phrase(seat: dict) -> str:
    """The seats list's cell of a Ludo seat: its pieces home ("2/4 home")."""
    if seat.get("home") is None:
        return ""
    # Translators: the seats list's cell of a Ludo seat: its pieces home, e.g. "2/4 home".
    return _("%(home)d/4 home") % {"home": seat["home"]}


SITE = GameSite(
    # Translators: the game's name; Hindi and Arabic spell it (glossary), others keep "Ludo".
    name=pgettext_lazy("game name", "Ludo"),
    picture="img/ludo-board.svg",
    blurb=gettext_lazy("Race four pieces round the board and up your own lane; "
                       "land on a rival to send it home."),
    turn_seconds=60,
    fixed_turn_seconds=60,  # the Ludo rule text "Game settings and rooms"
    room_options={
        "autoplay_forced": forms.BooleanField(label=gettext_lazy("Ludo: play a forced move automatically"),
                                              required=False, initial=True),
    },
    option_lines=option_lines,
    themes=(
        Theme("south_asia", gettext_lazy("Map: South Asia"), centre=(80.0, 21.0), span=34.0, size=BOARD_SIZE),
        Theme("europe", gettext_lazy("Map: Europe"), centre=(10.0, 50.0), span=30.0, size=BOARD_SIZE),
    ),
    stylesheets=("css/ludo.css",),
    # Translators: the match status "<name> to roll." (Ludo: roll the die).
    phase_phrases={"roll": pgettext_lazy("ludo status: <name> to …", "roll")},
    move_phrase=pgettext_lazy("ludo status: <name> to …", "move a piece"),
    chance_title=gettext_lazy("Fair dice"),
    # Translators: one chance step of Ludo, as in "Every roll of this match comes from a secret seed".
    chance_step=pgettext_lazy("ludo chance step", "roll"),
    seat_phrase=seat_phrase,
    rules_pictures=(4, (
        (0, gettext_lazy("The start: four pieces in each player's base, the corner of their colour. "
                         "A 6 brings a piece out onto its start cell, beside the base.")),
        (80, gettext_lazy("Some turns later: pieces race clockwise round the track; each colour's "
                          "home lane (its coloured arm) leads to the centre. Stars are safe cells.")),
    )),
    credit=gettext_lazy("Board concept and design by Mohammad Asif."),
    # The board's keyboard help (games.sites.dice_board_keys' lines, in Ludo's words).
    board_keys=(
        ("R", gettext_lazy("roll the die")),
        (gettext_lazy("N or →"), gettext_lazy("next piece")),
        (gettext_lazy("P or ←"), gettext_lazy("previous piece")),
        (gettext_lazy("T or ↓ ↑"), gettext_lazy("cycle the selected piece's destinations")),
        (gettext_lazy("Enter or Space"), gettext_lazy("select, then confirm")),
        (gettext_lazy("U or Backspace"), gettext_lazy("undo the last step")),
        ("Esc", gettext_lazy("cancel")),
    ),
)
