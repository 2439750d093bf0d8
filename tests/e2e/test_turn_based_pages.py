"""Coming back to turn-based matches in a real Chromium (docs/features.md
"Turn-based play"): as the turns pass, "Your matches" moves each row between
"Your turn in N matches" and "Waiting for others" and counts them, the badge
beside Play on another page follows, and the "your turn" toast reads in days
and hours, all over the user socket (static/js/notify.js); the groups and the
badge pass axe's contrast check in light, dark and forced colours; a turn-based
match page's connection status says "Up to date", not "Live"."""

import re

from playwright.sync_api import expect

from games.time_controls import DAY
from tests.e2e.test_contrast import violations_by_mode
from tests.e2e.test_live_play import in_thread, log_in
from tests.e2e.test_notifications import open_page, play_until_seat_moves
from tests.factories import ludo_state, make_match, make_user


def test_turns_move_rows_between_the_groups_and_the_count_follows(browser, live_server_url, axe_source):
    ann, bob = in_thread(make_user, "ann_tb"), in_thread(make_user, "bob_tb")
    theirs = in_thread(make_match, seats=("human", "human"), users=[ann, bob], state=ludo_state(turn=1),
                       turn_seconds=2 * DAY)
    mine = in_thread(make_match, seats=("human", "human"), users=[ann, bob], state=ludo_state(turn=0),
                     turn_seconds=3 * DAY)
    users = {0: ann, 1: bob}
    context = browser.new_context()
    log_in(context, ann, live_server_url)
    home = open_page(context, f"{live_server_url}/")
    about = open_page(context, f"{live_server_url}/about/")
    turn, wait = home.locator('ul[data-group="turn"]'), home.locator('ul[data-group="wait"]')
    badge = about.locator(".nav-wide [data-count='your-turn']")
    # A fresh 3-day decision: its time left is cut down, never said as more than it is.
    expect(turn.locator(f"#ym-{mine.public_id}")).to_contain_text(
        "Your turn · 2 days 23 h left · 3 days a move")
    expect(wait.locator(f"#ym-{theirs.public_id}")).to_contain_text(f"Waiting for {bob.username}")
    expect(home.locator(".ym-group-turn h3")).to_have_text("Your turn in 1 match")
    expect(badge).to_have_text(re.compile(r"1"))

    # bob's move hands the other match to ann: its row joins hers, and both pages count 2.
    play_until_seat_moves(theirs, users, 0)
    expect(turn.locator(f"#ym-{theirs.public_id}")).to_contain_text("Your turn", timeout=20_000)
    expect(wait.locator(".ym-row")).to_have_count(0)
    expect(home.locator(".ym-group-wait")).to_be_hidden()
    expect(home.locator(".ym-group-turn h3")).to_have_text("Your turn in 2 matches")
    # The soonest deadline first: 2 days a move before 3.
    expect(turn.locator(".ym-row").first).to_have_id(f"ym-{theirs.public_id}")
    expect(badge).to_have_text(re.compile(r"2"))
    toast = about.locator("#toasts .toast", has_text=f"Your turn in Ludo with {bob.username}")
    expect(toast.locator("time.toast-clock")).to_have_text(re.compile(r"^1 day 23 h left$"))

    # ann's own move hands hers to bob: it goes to "Waiting for others".
    play_until_seat_moves(mine, users, 1)
    row = wait.locator(f"#ym-{mine.public_id}")
    expect(row).to_contain_text(f"Waiting for {bob.username}", timeout=20_000)
    expect(home.locator(".ym-group-turn h3")).to_have_text("Your turn in 1 match")
    expect(badge).to_have_text(re.compile(r"1"))
    assert violations_by_mode(home, axe_source) == {}
    # The match page's connection status of a turn-based match does not read "Live"
    # (the other time control): it says the page is up to date.
    match_page = open_page(context, f"{live_server_url}/m/{mine.public_id}/")
    expect(match_page.locator("#connection-status")).to_have_text("Up to date", timeout=20_000)
    context.close()
