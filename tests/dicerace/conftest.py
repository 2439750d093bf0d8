"""The ``dicerace`` fixture: dice race registered in the test process for one
test (the registry entry and the Django app), then taken off again, so the rest
of the suite sees only the site's own games. The processes a test starts get
it from ``tests.dicerace.settings``."""

import pytest

from games.engine import register_game, unregister_game
from tests.dicerace import KIND, PACKAGE


@pytest.fixture
def dicerace(settings):
    """Registers dice race for the test; yields its kind, "dicerace"."""
    register_game(KIND, PACKAGE)
    settings.INSTALLED_APPS = [*settings.INSTALLED_APPS, PACKAGE]  # its templates (override_settings)
    yield KIND
    unregister_game(KIND)
