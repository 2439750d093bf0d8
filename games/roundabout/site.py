"""Roundabout on the site (docs/adding-a-game.md, "The folder"): what the shared
pages, forms and admin show of the game (``games.sites.GameSite``)."""

from games.sites import GameSite, dice_board_keys

SITE = GameSite(
    name="Roundabout",
    picture="img/roundabout-board.svg",
    blurb="Send your darts round a circular board and home again, or trap a row of them far away.",
    turn_seconds=60,
    move_phrase="move a dart",
    stylesheets=("css/roundabout.css",),
    phase_phrases={"roll": "roll", "offer": "accept or decline the roll"},
    rules_pictures=(2, (
        (0, "The start: each player's darts on the two middle bars of their own territory, "
            "half facing each way round."),
        (24, "Some turns later: darts have moved round their rings and along the bars. "
             "Two darts of one colour side by side form a block nobody else may jump."),
    )),
    credit="Designed and published by Otero Games (2004).",
    credit_name="ROUNDABOUT",
    board_keys=dice_board_keys("dart", "roll the dice"),
    piece_word="dart",
)
