"""Screenshots of rated challenges (docs/features.md "Playing again", Rated
or casual): the challenge form on a bot's profile with Rated ticked, the
refusal of rated and private together, a rated challenge's page for each of
its players and the play page's list of challenges to you, at 1280x800 and
390x844. Not collected by the suite; run it by name:

    PARLOUR_SHOTS=/tmp/shots .venv/bin/python -m pytest -p no:cacheprovider tests/e2e/rated_screenshots.py
"""

import os
from pathlib import Path

from playwright.sync_api import expect

from accounts import tokens
from core import ratelimits
from matchmaking.challenges import actions as challenges
from matchmaking.models import Challenge
from tests.e2e.test_live_play import in_thread, log_in
from tests.factories import make_user

SHOTS = Path(os.environ.get("PARLOUR_SHOTS", Path(__file__).resolve().parents[2] / "docs" / "screenshots"))
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def site():
    return tokens.make_bot(make_user("dicebot")), make_user("ann"), make_user("cy")


def test_rated_challenge_screenshots(browser, live_server_url):
    SHOTS.mkdir(parents=True, exist_ok=True)
    bot, ann, cy = in_thread(site)
    for size, (w, h) in SIZES.items():
        in_thread(lambda: (Challenge.objects.all().delete(), ratelimits.reset()))
        in_thread(challenges.do_challenge, cy, bot.username, "ludo", 60)  # a casual one beside it
        context = browser.new_context(viewport={"width": w, "height": h})
        log_in(context, ann, live_server_url)
        page = context.new_page()
        page.goto(f"{live_server_url}/u/{bot.username}/")
        form = page.locator(".challenge-form")
        form.get_by_label("Game").select_option("roundabout")
        form.get_by_label("Rated", exact=True).check()
        form.get_by_label("Private: only the two of you can watch and replay it").check()
        form.scroll_into_view_if_needed()
        page.screenshot(path=SHOTS / f"challenge-form-{size}.png")
        form.get_by_role("button", name="Send the challenge").click()
        expect(page.locator(".messages .error")).to_contain_text("A rated challenge is public")
        page.screenshot(path=SHOTS / f"challenge-rated-private-refused-{size}.png")
        form = page.locator(".challenge-form")
        form.get_by_label("Game").select_option("roundabout")
        form.get_by_label("Rated", exact=True).check()
        form.get_by_role("button", name="Send the challenge").click()
        expect(page.locator("#challenge-state")).to_contain_text("Waiting for dicebot")
        page.screenshot(path=SHOTS / f"challenge-rated-{size}.png")
        context.close()
        context = browser.new_context(viewport={"width": w, "height": h})
        log_in(context, bot, live_server_url)
        page = context.new_page()
        page.goto(f"{live_server_url}/challenges/{in_thread(lambda: Challenge.objects.get(rated=True).pk)}/")
        expect(page.locator("#challenge-state")).to_contain_text("challenges you")
        page.screenshot(path=SHOTS / f"challenge-rated-challenged-{size}.png")
        page.goto(f"{live_server_url}/play/")
        incoming = page.locator("#incoming-challenges")
        expect(incoming.locator(".challenge-item")).to_have_count(2)
        incoming.scroll_into_view_if_needed()
        page.screenshot(path=SHOTS / f"challenges-incoming-{size}.png")
        context.close()
