"""Exit 0 when a Chromium for the browser tests exists, else 1 (see tests/e2e/conftest.py)."""

import sys

from config.browser import chromium_path, playwright_chromium_installed

if __name__ == "__main__":
    sys.exit(0 if chromium_path() or playwright_chromium_installed() else 1)
