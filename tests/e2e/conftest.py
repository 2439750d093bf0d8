"""Browser tests: Playwright driving a real Chromium against daphne.

The system Chromium (/usr/bin/chromium, or $PARLOUR_CHROMIUM) is used when
present, else Playwright's own build. With neither, every browser test fails
with a message saying how to install one (never a silent skip).
"""

import os

import pytest

from config.browser import CHROMIUM_ARGS, INSTALL_HINT, chromium_path, playwright_chromium_installed

# Playwright's sync API runs an event loop in this thread; the tests only touch
# the ORM between browser steps, never concurrently with it.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.slow)
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    path = chromium_path()
    if not path and not playwright_chromium_installed():
        pytest.fail(INSTALL_HINT, pytrace=False)
    args = dict(browser_type_launch_args, headless=True, args=CHROMIUM_ARGS)
    if path:
        args["executable_path"] = path
    return args


@pytest.fixture
def csp_violations(page):
    """Console messages in which Chromium reports a Content-Security-Policy
    violation on ``page`` (the test asserts there are none)."""
    found = []
    page.on("console", lambda msg: found.append(msg.text) if "Content Security Policy" in msg.text else None)
    return found
