"""Right to left, seen (docs/i18n.md "Right to left"): the home page, a Ludo and
a Rondo (and a Roundabout) match page, a rules page and a history, in Arabic and in English for
comparison, at 1280x800 and 390x844 (light). Not collected by the suite (the file
name does not start with test_); run it by name:

    PARLOUR_SHOTS=/tmp/shots .venv/bin/python -m pytest -p no:cacheprovider tests/e2e/rtl_screenshots.py

PARLOUR_SHOTS names the folder (default docs/screenshots; files ``rtl-<page>-<size>-<language>.png``),
PARLOUR_SHOT_LANGUAGES the languages (default "ar,en")."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from accounts.models import User
from tests.e2e.lobby_site import populate
from tests.e2e.positions import ON_PAGE, make_decision
from tests.e2e.test_live_play import in_thread, log_in

SHOTS = Path(os.environ.get("PARLOUR_SHOTS", Path(__file__).resolve().parents[2] / "docs" / "screenshots"))
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
LANGUAGES = os.environ.get("PARLOUR_SHOT_LANGUAGES", "ar,en").split(",")
#: A match page: its name here -> the decision of tests/e2e/positions.py it shows.
MATCHES = {"ludo": "ludo-choose", "rondo": "rondo-place", "roundabout": "roundabout-darts"}
#: The other pages: name -> the path on the site of lobby_site.populate().
PAGES = {
    "home": lambda site: "/",
    "rules": lambda site: "/rules/ludo/",
    "history": lambda site: f"/u/{site.me.username}/matches/",
}


def _context(browser, user, base_url, size, language):
    """A browser context that reads ``language`` (Accept-Language, the language
    cookie and the account's choice), signed in as ``user``."""
    in_thread(lambda: User.objects.filter(pk=user.pk).update(language=language))
    w, h = SIZES[size]
    context = browser.new_context(viewport={"width": w, "height": h}, locale=language)
    context.add_cookies([{"name": "django_language", "value": language, "url": base_url}])
    log_in(context, user, base_url)
    return context


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_match_screenshots(browser, live_server_url, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    match = in_thread(make_decision, MATCHES[name])
    user = match.seats.get(index=0).user
    for size in SIZES:
        for language in LANGUAGES:
            context = _context(browser, user, live_server_url, size, language)
            page = context.new_page()
            page.goto(f"{live_server_url}/m/{match.public_id}/")
            # Live in any language: the state, not its English word.
            expect(page.locator('#match[data-connection="live"]')).to_be_attached(timeout=20_000)
            if MATCHES[name] in ON_PAGE:
                ON_PAGE[MATCHES[name]](page)
            page.wait_for_timeout(300)
            page.screenshot(path=SHOTS / f"rtl-{name}-{size}-{language}.png")
            context.close()


def test_page_screenshots(browser, live_server_url):
    SHOTS.mkdir(parents=True, exist_ok=True)
    site = in_thread(populate)
    for name, path in PAGES.items():
        for size in SIZES:
            for language in LANGUAGES:
                context = _context(browser, site.me, live_server_url, size, language)
                page = context.new_page()
                page.goto(f"{live_server_url}{path(site)}")
                page.wait_for_timeout(300)
                page.screenshot(path=SHOTS / f"rtl-{name}-{size}-{language}.png")
                context.close()
