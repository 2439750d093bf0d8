"""Browser tests: Playwright driving a real Chromium against daphne.

The system Chromium (/usr/bin/chromium, or $PARLOUR_CHROMIUM) is used when
present, else Playwright's own build. With neither, every browser test fails
with a message saying how to install one (never a silent skip).
"""

import os

import pytest
from playwright.sync_api import expect

from config.browser import CHROMIUM_ARGS, INSTALL_HINT, chromium_path, playwright_chromium_installed

# Playwright's sync API runs an event loop in this thread; the tests only touch
# the ORM between browser steps, never concurrently with it.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


# Playwright's assertions wait 5 s by default; on a loaded CI machine (two test
# passes side by side on two cores) a page's answer has taken longer. A bound,
# never a measure: an assertion that holds returns as soon as it does.
expect.set_options(timeout=15_000)


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


@pytest.fixture(autouse=True)
def _close_leftover_contexts(browser):
    """After each browser test, close every browser context it opened and left
    open (a second player's, a spectator's): a page left open keeps its socket,
    its timers and its renderer, and six such renderers once took most of a core
    for the rest of a CI run."""
    yield
    for context in list(browser.contexts):
        try:
            context.close()
        except Exception:  # noqa: BLE001 - already closed, or the browser is gone
            pass


@pytest.fixture
def csp_violations(page):
    """Console messages in which Chromium reports a Content-Security-Policy
    violation on ``page`` (the test asserts there are none)."""
    found = []
    page.on("console", lambda msg: found.append(msg.text) if "Content Security Policy" in msg.text else None)
    return found


E2E_DIR = os.path.dirname(os.path.abspath(__file__))
AXE = os.path.join(E2E_DIR, "node_modules", "axe-core", "axe.min.js")


@pytest.fixture(scope="session")
def axe_source():
    """The source of axe-core (the version tests/e2e/package-lock.json pins),
    installed with ``npm ci`` into tests/e2e/node_modules the first time a
    test asks for it. A test evaluates it in the page (page.evaluate runs
    outside the page's Content-Security-Policy, which refuses injected script tags)."""
    import fcntl
    import shutil
    import subprocess

    # Test workers (pytest-xdist) install it one at a time: ``npm ci`` empties
    # node_modules first, so a second worker must not read it meanwhile.
    with open(os.path.join(E2E_DIR, ".npm-install.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(AXE):
            npm = shutil.which("npm")
            if npm is None:
                pytest.fail("The contrast checks need axe-core from npm: install Node.js and npm "
                            "(apt-get install npm), then run the tests again.", pytrace=False)
            subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--silent"], cwd=E2E_DIR, check=True,
                           timeout=300)
        with open(AXE, encoding="utf-8") as f:
            return f.read()
