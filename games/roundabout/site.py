"""Roundabout on the site (docs/adding-a-game.md, "The folder"): what the shared
pages, forms and admin show of the game (``games.sites.GameSite``).

Its words are lazy translations (``gettext_lazy``): read when a page is rendered,
in that page's language (the game folder's own catalogue, games/roundabout/locale).
The game's name is a brand and stays as it is."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.sites import GameSite

SITE = GameSite(
    name="Roundabout",
    picture="img/roundabout-board.svg",
    blurb=_("Send your darts round a circular board and home again, or trap a row of them far away."),
    turn_seconds=60,
    # Translators: completes "<name> to …." in the match status: "ada to move a dart."
    move_phrase=_("move a dart"),
    stylesheets=("css/roundabout.css",),
    phase_phrases={
        # Translators: completes "<name> to …." in the match status: "ada to roll."
        "roll": pgettext_lazy("match status", "roll"),
        # Translators: completes "<name> to …." in the match status (the Golden Rule's offer).
        "offer": _("accept or decline the roll"),
    },
    rules_pictures=(2, (
        (0, _("The start: each player's darts on the two middle bars of their own territory, "
              "half facing each way round.")),
        (24, _("Some turns later: darts have moved round their rings and along the bars. "
               "Two darts of one colour side by side form a block nobody else may jump.")),
    )),
    credit=_("Designed and published by Otero Games (2004)."),
    credit_name="ROUNDABOUT",
    # The board's keyboard help (games.sites.dice_board_keys' keys, in the game's words). The
    # keys are what the keyboard says; the words around them are translated.
    board_keys=(
        ("R", _("roll the dice")),
        # Translators: the keys of the board's keyboard help: keep the key letters and arrows.
        (_("N or →"), _("next dart")),
        (_("P or ←"), _("previous dart")),
        (_("T or ↓ ↑"), _("cycle the selected dart's destinations")),
        (_("Enter or Space"), _("select, then confirm")),
        (_("U or Backspace"), _("undo the last step")),
        (_("Esc"), _("cancel")),
    ),
    # Translators: what the board's hints call a piece ("Choose a highlighted dart.").
    piece_word=_("dart"),
)
