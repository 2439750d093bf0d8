"""The test settings with dice race registered: the settings of the daphne and
Celery processes the dice race tests start (``DJANGO_SETTINGS_MODULE``). The one
registration a game defined outside ``games.engine.GAMES`` needs
(docs/adding-a-game.md, "The registration")."""

from config.test_settings import *  # noqa: F403
from config.test_settings import INSTALLED_APPS
from games.engine import register_game
from tests.dicerace import KIND, PACKAGE

register_game(KIND, PACKAGE)
INSTALLED_APPS = [*INSTALLED_APPS, PACKAGE]
