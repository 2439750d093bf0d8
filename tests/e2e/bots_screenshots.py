"""Screenshots of bot accounts and API tokens (docs/features.md "Bot accounts
and API tokens"): a token just made, the tokens list, a match with a bot's
seat and the bots' leaderboard, at 1280x800 and 390x844. Not collected by
the suite; run it by name:

    PARLOUR_SHOTS=/tmp/shots .venv/bin/python -m pytest -p no:cacheprovider tests/e2e/bots_screenshots.py
"""

import os
from pathlib import Path

from playwright.sync_api import expect

from accounts import tokens
from accounts.models import Rating
from tests.e2e.test_live_play import in_thread, log_in
from tests.factories import ludo_state, make_match, make_user

SHOTS = Path(os.environ.get("PARLOUR_SHOTS", Path(__file__).resolve().parents[2] / "docs" / "screenshots"))
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def site():
    bot = tokens.make_bot(make_user("dicebot"))
    tokens.make_token(bot, "tournament runner", ["read", "play"])
    tokens.make_token(bot, "stats reader", ["read"])
    ann = make_user("ann")
    match = make_match(seats=("human", "human"), users=[ann, bot], state=ludo_state())
    for name, rating, games in (("sixseeker", 1712, 64), ("ludolite", 1588, 31), ("rondoid", 1460, 7)):
        Rating.objects.create(user=tokens.make_bot(make_user(name)), kind="ludo", rating=rating, peak=rating,
                              games=games)
    Rating.objects.create(user=bot, kind="ludo", rating=1530, peak=1561, games=22)
    return bot, ann, match.public_id


def test_bots_screenshots(browser, live_server_url):
    SHOTS.mkdir(parents=True, exist_ok=True)
    bot, ann, public_id = in_thread(site)
    for size, (w, h) in SIZES.items():
        context = browser.new_context(viewport={"width": w, "height": h})
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        log_in(context, bot, live_server_url)
        page = context.new_page()
        page.goto(f"{live_server_url}/account/tokens/")
        page.screenshot(path=SHOTS / f"tokens-list-{size}.png", full_page=True)
        page.get_by_label("Name", exact=True).fill(f"my {size} bot")
        page.get_by_label("play", exact=True).check()
        page.get_by_role("button", name="Make the token").click()
        expect(page.get_by_role("heading", name="Your new token")).to_be_visible()
        page.get_by_role("button", name="Copy").click()
        expect(page.get_by_text("Copied.")).to_be_visible()
        page.screenshot(path=SHOTS / f"tokens-made-{size}.png", full_page=True)
        context.close()
        context = browser.new_context(viewport={"width": w, "height": h})
        log_in(context, ann, live_server_url)
        page = context.new_page()
        page.goto(f"{live_server_url}/m/{public_id}/")
        expect(page.locator("#seats .bot-badge")).to_have_count(1)
        page.screenshot(path=SHOTS / f"bot-match-{size}.png")
        page.goto(f"{live_server_url}/leaderboard/ludo/?bots=1")
        page.screenshot(path=SHOTS / f"bot-leaderboard-{size}.png", full_page=True)
        context.close()
