"""Roundabout on the site (docs/adding-a-game.md, "The folder"): what the shared
pages, forms and admin show of the game (``games.sites.GameSite``)."""

from games.sites import GameSite, dice_board_keys

SITE = GameSite(
    name="Roundabout",
    picture="img/roundabout-board.svg",
    blurb="Send your darts round a circular board and home again, or trap a row of them far away.",
    turn_seconds=60,
    move_phrase="move a dart",
    board_keys=dice_board_keys("dart", "roll the dice"),
)
