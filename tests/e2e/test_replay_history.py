"""The replay page and the browser's history (README "Replays"): Back after
autoplay and after a step goes to the ply before, drawn in full and in place;
the page never shows a ply other than the one its address names."""

import re

from playwright.sync_api import expect

from tests.e2e.test_live_play import in_thread, log_in
from tests.e2e.test_lobby_e2e import no_reload, still_loaded
from tests.factories import ludo_state, make_match, make_user, play_to_the_end


def _ended_match():
    ann, bob = make_user("replay_ann"), make_user("replay_bob")
    # Near the end, so the record is short: each seat has three pieces home.
    state = ludo_state(2, pieces=[[56, 56, 56, 40], [56, 56, 56, 44]])
    match = play_to_the_end(make_match(seats=("human", "human"), users=[ann, bob], state=state))
    return ann, match, match.moves.count()


def _shows(page, ply: int, total: int):
    """The page shows ply ``ply`` in full: its address, the step bar, the board,
    the dice and the seats."""
    expect(page).to_have_url(re.compile(rf"\?ply={ply}$" if ply else r"/replay/(\?ply=0)?$"))
    expect(page.locator("#replay-position")).to_have_text(f"Ply {ply} of {total}")
    for part in ("#board", "#dice", "#seats"):
        expect(page.locator(part)).to_be_visible()


def test_back_after_autoplay_and_a_step_goes_to_the_ply_before_in_full(browser, live_server_url):
    ann, match, total = in_thread(_ended_match)
    assert total >= 8
    context = browser.new_context()
    log_in(context, ann, live_server_url)
    page = context.new_page()
    errors = []
    page.on("console", lambda message: errors.append(message.text) if "htmx:" in message.text else None)
    page.goto(f"{live_server_url}/m/{match.public_id}/replay/")
    page.wait_for_load_state()  # replay.js (deferred) handles the clicks
    no_reload(page)

    page.locator("#replay-next").click()  # a step: pushes ?ply=1
    _shows(page, 1, total)
    page.locator("#replay-speed").select_option("400")
    page.locator("#replay-play").click()  # autoplay: replaces the address each ply
    expect(page.locator("#replay-position")).to_have_text(re.compile(r"Ply ([3-9]|\d\d+) of"))
    page.locator("#replay-play").click()  # pause (autoplay may have gone one further)
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "false")
    shown = int(page.locator("#replay-nav").get_attribute("data-ply"))
    page.locator("#replay-next").click()
    _shows(page, shown + 1, total)

    page.go_back()  # to where autoplay stopped
    _shows(page, shown, total)
    page.go_back()  # to the page as first opened, before any step
    _shows(page, 0, total)
    page.go_forward()
    _shows(page, shown, total)
    assert still_loaded(page), "every step and every Back stays on the page htmx keeps"
    assert errors == []
