"""The README's screenshots (docs/screenshots/): each game's decisions at
1280x800 and 390x844, light and dark. Not collected by the suite (the file
name does not start with test_); run it by name:

    .venv/bin/python -m pytest -p no:cacheprovider tests/e2e/screenshots.py

PARLOUR_SHOTS names the folder (default docs/screenshots)."""

import os
from pathlib import Path

import pytest

from tests.e2e.positions import ON_PAGE, make_decision
from tests.e2e.test_live_play import in_thread, live, log_in

SHOTS = Path(os.environ.get("PARLOUR_SHOTS", Path(__file__).resolve().parents[2] / "docs" / "screenshots"))
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
NAMES = os.environ.get("PARLOUR_SHOT_NAMES", "ludo-choose,roundabout-darts,rondo-place").split(",")


@pytest.mark.parametrize("name", NAMES)
def test_screenshots(browser, live_server_url, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    match = in_thread(make_decision, name)
    user = match.seats.get(index=0).user
    for size, (w, h) in SIZES.items():
        for scheme in ("light", "dark"):
            context = browser.new_context(viewport={"width": w, "height": h}, color_scheme=scheme)
            log_in(context, user, live_server_url)
            page = context.new_page()
            page.goto(f"{live_server_url}/m/{match.public_id}/")
            live(page)
            if name in ON_PAGE:
                ON_PAGE[name](page)
            page.wait_for_timeout(300)
            page.screenshot(path=SHOTS / f"{name}-{size}-{scheme}.png")
            context.close()
