"""Dice race, a test-only game built like the site's games (docs/adding-a-game.md):
two seats take turns to roll one die and move that many cells; the first to
reach cell 20 wins. It proves that a game is one folder: nothing outside this
package names it. ``settings.py`` registers it for the processes the tests
start, and the ``dicerace`` fixture (conftest.py) for the test process."""

#: Its registry name and its package (importing this module registers nothing;
#: importing ``settings`` does).
KIND = "dicerace"
PACKAGE = "tests.dicerace"
