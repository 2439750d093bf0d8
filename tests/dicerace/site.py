"""Dice race on the site (``games.sites.GameSite``): its name and words, its
styles, its rules page's pictures."""

from games.sites import GameSite, dice_board_keys


def seat_phrase(seat: dict) -> str:
    """The seats list's cell of a seat: where its marker is ("on cell 7 of 20")."""
    return f"on cell {seat['cell']} of 20"


SITE = GameSite(
    name="Dice race",
    turn_seconds=30,
    move_phrase="roll",
    phase_phrases={"roll": "roll"},
    seat_phrase=seat_phrase,
    stylesheets=("css/dicerace.css",),
    board_keys=dice_board_keys("marker", "roll the die"),
    piece_word="marker",
    rules_pictures=(2, (
        (0, "The start: both markers on cell 0, the first of the row."),
        (6, "Some turns later: each marker has moved on by its own rolls; the gold cell is the goal."),
    )),
)
