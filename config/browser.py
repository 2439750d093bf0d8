"""Which Chromium the browser tests drive.

``PARLOUR_CHROMIUM`` names one explicitly; else Debian's ``/usr/bin/chromium``
(or ``chromium``/``chromium-browser`` on PATH); else Playwright's own download.
"""

import os
import shutil
from pathlib import Path

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]

INSTALL_HINT = (
    "No Chromium for the browser tests. Install Debian's (apt-get install chromium), "
    "or run '.venv/bin/python -m playwright install chromium', or set PARLOUR_CHROMIUM "
    "to a Chromium binary."
)


def chromium_path() -> str | None:
    """Path of a system Chromium, or None."""
    explicit = os.environ.get("PARLOUR_CHROMIUM")
    if explicit:
        return explicit
    if Path("/usr/bin/chromium").exists():
        return "/usr/bin/chromium"
    return shutil.which("chromium") or shutil.which("chromium-browser")


def playwright_chromium_installed() -> bool:
    """True when Playwright's own Chromium build has been downloaded."""
    cache = Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or Path.home() / ".cache/ms-playwright")
    return any(cache.glob("chromium*")) if cache.exists() else False
