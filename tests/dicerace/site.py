"""Dice race on the site (``games.sites.GameSite``)."""

from games.sites import GameSite

SITE = GameSite(name="Dice race", turn_seconds=30, move_phrase="roll")
