"""Screenshots of finding and following players (docs/features.md "Finding and
following players"): the search's results, a profile with its Follow button,
and the list of the people you follow (one online, one in a public match, one
in a private match, one away), at 1280x800 and 390x844. Not collected by the
suite; run it by name:

    PARLOUR_SHOTS=/tmp/shots .venv/bin/python -m pytest -p no:cacheprovider tests/e2e/people_screenshots.py
"""

import os
from pathlib import Path

from playwright.sync_api import expect

from accounts.models import User
from people.models import Follow
from tests.e2e.test_live_play import in_thread, log_in
from tests.factories import ludo_state, make_match, make_user

SHOTS = Path(os.environ.get("PARLOUR_SHOTS", Path(__file__).resolve().parents[2] / "docs" / "screenshots"))
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def site():
    me = make_user("marta")
    names = ["Marco", "marcel", "MARGOT", "marie_k", "marlowe", "martin", "marvin", "maryam", "mark.t"]
    people = {n: make_user(n) for n in names}
    User.objects.filter(username="marvin").update(is_active=False)  # closed: never listed
    for n in ("Marco", "marcel", "MARGOT", "martin"):
        Follow.objects.create(follower=me, followed=people[n])
    Follow.objects.create(follower=people["marcel"], followed=me)
    make_match(seats=("human", "normal"), users=[people["marcel"]], state=ludo_state())
    make_match(seats=("human", "normal"), users=[people["MARGOT"]], state=ludo_state(), is_public=False)
    return me, people


def test_people_screenshots(browser, live_server_url):
    SHOTS.mkdir(parents=True, exist_ok=True)
    me, people = in_thread(site)
    # Marco has a page of the site open: online.
    marco = browser.new_context()
    log_in(marco, people["Marco"], live_server_url)
    marco_page = marco.new_page()
    marco_page.goto(f"{live_server_url}/rules/")
    marco_page.wait_for_function("() => document.querySelector('body') !== null")
    for size, (w, h) in SIZES.items():
        context = browser.new_context(viewport={"width": w, "height": h})
        log_in(context, me, live_server_url)
        page = context.new_page()
        page.goto(f"{live_server_url}/people/?q=mar")
        page.screenshot(path=SHOTS / f"people-search-{size}.png", full_page=True)
        page.goto(f"{live_server_url}/u/marlowe/")
        page.screenshot(path=SHOTS / f"people-profile-{size}.png")
        page.get_by_role("button", name="Follow").click()
        expect(page.get_by_role("button", name="Unfollow")).to_be_visible()
        page.screenshot(path=SHOTS / f"people-profile-followed-{size}.png")
        page.goto(f"{live_server_url}/people/following/")
        expect(page.locator("tr[data-user='Marco'] .online")).to_have_text("Online", timeout=10_000)
        page.screenshot(path=SHOTS / f"people-following-{size}.png", full_page=True)
        context.close()
        in_thread(lambda: Follow.objects.filter(follower=me, followed__username="marlowe").delete())
    marco.close()
