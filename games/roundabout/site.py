"""Roundabout on the site (docs/adding-a-game.md, "The folder"): what the shared
pages, forms and admin show of the game (``games.sites.GameSite``)."""

from games.sites import GameSite

SITE = GameSite(
    name="Roundabout",
    turn_seconds=60,
    move_phrase="move a dart",
)
