"""Attention and a true connection status in a real Chromium (static/js/attention.js,
static/js/match.js): the tab title, the announcement and the focus when a
decision becomes the player's, and "Live" only while frames arrive."""

import os
import re
import signal

import pytest
from playwright.sync_api import expect

from games import actions
from games.engine import get_rules
from games.models import Match, Move
from tests import services
from tests.e2e.test_live_play import in_thread, live, log_in
from tests.factories import ludo_state, make_match


def test_the_title_announcement_and_focus_say_when_the_turn_comes(page, live_server_url):
    match = in_thread(make_match, seats=("human", "human"), state=ludo_state())
    users = {s.index: s.user for s in match.seats.select_related("user")}
    log_in(page.context, users[1], live_server_url)
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    assert not page.title().startswith("Your turn")
    rules = get_rules("ludo")
    for _ in range(20):  # seat 0 plays until the turn passes to seat 1
        m = Match.objects.get(pk=match.pk)
        state = rules.load(m.state)
        if rules.to_move(state) == 1:
            break
        in_thread(actions.play_move, match.public_id, users[0], str(rules.legal_moves(state)[0]), m.version)
    now = Match.objects.get(pk=match.pk).version
    expect(page.locator("#match")).to_have_attribute("data-version", str(now))
    expect(page.locator("#controls")).to_have_attribute("data-my-turn", "")
    assert page.title().startswith("Your turn · ")
    expect(page.locator("#attention")).to_have_text("Your turn.")
    assert page.evaluate("document.activeElement.closest('#controls') !== null")
    assert "favicon-turn" in page.locator("link[rel~='icon']").get_attribute("href")


def test_ten_seconds_left_on_the_own_clock_is_shown_and_announced(page, live_server_url):
    match = in_thread(make_match, seats=("human", "human"), state=ludo_state(), turn_seconds=20)
    log_in(page.context, match.seats.get(index=0).user, live_server_url)
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    warning = page.locator("#time-warning")
    # Read in one step in the page: the clock as shown and whether the warning
    # shows. On a loaded machine the page can take seconds to load, so the turn
    # is long enough that more than 10 s are still left when it has.
    shown, hidden = page.evaluate(
        "() => [document.getElementById('clock').textContent,"
        " document.getElementById('time-warning').hidden]")
    minutes, seconds = shown.split(":")
    assert int(minutes) * 60 + int(seconds) > 11, f"the page took too long to load: {shown} left of 00:20"
    assert hidden
    where = ("() => ['#board', '#controls'].map(s => { const r = document.querySelector(s)"
             ".getBoundingClientRect(); return [Math.round(r.x), Math.round(r.y)]; })")
    before = page.evaluate(where)
    expect(warning).to_be_visible(timeout=20_000)
    expect(warning).to_have_text("10 seconds left to decide.")
    expect(page.locator("#attention")).to_have_text("10 seconds left.")
    assert page.title().startswith("10 s left! Your turn")  # seen from another tab too
    # The warning floats over the page: the board and the controls stay where the
    # player is about to tap (it pushed them 36 px down before).
    assert page.evaluate(where) == before
    if os.environ.get("PARLOUR_SHOTS"):
        page.screenshot(path=os.path.join(os.environ["PARLOUR_SHOTS"], "time-warning.png"))
    box = warning.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


@pytest.mark.resilience
def test_the_status_leaves_live_while_the_server_is_stopped_and_comes_back(
        page, transactional_db, django_db_blocker, csp_violations):
    with django_db_blocker.unblock():
        server, base = services.start_daphne("daphne-sigstop", PARLOUR_HEARTBEAT_SECONDS="1")
    try:
        match = in_thread(make_match, seats=("human", "human"), state=ludo_state())
        log_in(page.context, match.seats.get(index=1).user, base)
        page.goto(f"{base}/m/{match.public_id}/")
        live(page)
        expect(page.locator("#match")).to_have_attribute("data-heartbeat-ms", "1000")
        server.kill(signal.SIGSTOP)  # the socket stays open; no frame comes
        expect(page.locator("#connection-status")).not_to_have_text("Live", timeout=20_000)
        server.kill(signal.SIGCONT)
        live(page)
        assert csp_violations == []
    finally:
        server.kill(signal.SIGCONT)
        server.stop()


@pytest.mark.resilience
def test_offline_the_page_says_so_at_once_and_a_waiting_move_stays_locked_until_it_went(
        page, transactional_db, django_db_blocker, csp_violations):
    """The browser goes offline: "Offline" at once, the move forms locked, and back
    online the page reconnects by itself. A move sent into a connection that then
    stalls (the server stopped: no answer, no heartbeat) says it is waiting, stays
    locked past the busy timeout and through the page's reconnect attempts, and
    once the server runs again the page says the board shows where it went."""
    with django_db_blocker.unblock():
        server, base = services.start_daphne("daphne-offline", PARLOUR_HEARTBEAT_SECONDS="1")
    try:
        match = in_thread(make_match, seats=("human", "human"), state=ludo_state())
        log_in(page.context, match.seats.get(index=0).user, base)
        page.clock.install()  # time runs as usual; fast_forward jumps the page's timers
        page.goto(f"{base}/m/{match.public_id}/")
        live(page)
        roll = page.get_by_role("button", name="Roll the die")
        wait = page.locator("#move-wait")

        page.context.set_offline(True)
        expect(page.locator("#connection-status")).to_have_text("Offline")
        expect(roll).to_be_disabled()
        expect(wait).to_have_text("Offline: you can move again when the network is back.")
        page.context.set_offline(False)
        live(page)  # reconnected at once, not after the heartbeat's silence
        expect(roll).to_be_enabled()
        expect(wait).to_be_hidden()

        server.kill(signal.SIGSTOP)  # the socket stays open; nothing answers
        roll.click()
        expect(wait).to_have_text("Your move is waiting for the connection…")
        page.clock.fast_forward(5_000)  # past the heartbeat's silence
        expect(page.locator("#connection-status")).to_have_text("Reconnecting…")
        for _ in range(3):  # past the busy timeout (10 s), the socket dropped, reconnects tried
            page.clock.fast_forward(11_000)
        expect(roll).to_be_disabled()
        expect(wait).to_have_text("Your move is waiting for the connection…")
        server.kill(signal.SIGCONT)
        page.clock.fast_forward(11_000)  # the next reconnect attempt, whatever its backoff
        live(page)
        # Over the old socket (its answer) or a new one (the snapshot): the page says which.
        expect(wait).to_have_text(re.compile(r"Your move went through, \d+ s after you played it\.|"
                                             r"Reconnected: the board shows the match as it stands now\."))
        expect(page.locator("#move-list")).to_contain_text("rolled")
        assert Move.objects.filter(match=match, notation="roll").count() == 1
        assert csp_violations == []
    finally:
        server.kill(signal.SIGCONT)
        server.stop()


def test_a_page_that_opens_on_the_turn_and_a_keyboard_move_keep_the_focus_on_the_decision(
        page, live_server_url):
    """Opened on this seat's turn, the focus is on the decision (Roll); a roll sent
    with the keyboard leaves it on the next decision (on the board, where the darts
    are chosen), never on <body>, even though the public frame comes first."""
    match = in_thread(make_match, "roundabout", seats=("human", "human"))
    rules = get_rules("roundabout")
    seat = rules.to_move(rules.load(match.state))
    log_in(page.context, match.seats.get(index=seat).user, live_server_url)
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    roll = page.get_by_role("button", name="Roll the dice")
    expect(roll).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#controls")).to_contain_text("Dice:")
    expect(page.locator(".board-stage")).to_be_focused()


def test_auto_roll_rolls_when_a_roll_is_the_only_choice_and_never_otherwise(page, live_server_url):
    """The device setting "Roll for me when rolling is my only choice": with it on,
    the page rolls by itself when the seat's decision is only a roll, and leaves a
    decision between pieces to the player."""
    state = ludo_state(pieces=[[10, 20, -1, -1], [-1] * 4], autoplay_forced=False)
    match = in_thread(make_match, seats=("human", "human"), state=state)
    log_in(page.context, match.seats.get(index=0).user, live_server_url)
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    expect(page.get_by_role("button", name="Roll the die")).to_be_enabled()  # off: nothing happens
    page.locator("#tab-device").click()
    page.get_by_label("Roll for me when rolling is my only choice").check()
    expect(page.locator("#move-list")).to_contain_text("rolled")  # it rolled, as the player
    expect(page.locator("#controls")).to_contain_text("Move piece 0 forward")  # two pieces: the player's
    assert Move.objects.filter(match=match, notation="roll").count() == 1
    assert page.evaluate("localStorage.getItem('parlour.autoroll')") == "1"


def test_auto_roll_never_rolls_twice_for_a_player_who_did_nothing_in_between(page, live_server_url):
    """An absent player with auto-roll on: one roll is made for them, the next
    roll-only decision waits for them (and so can run out and count as missed)."""
    match = in_thread(make_match, seats=("human", "human"), state=ludo_state(pieces=[[-1] * 4, [-1] * 4]))
    users = {s.index: s.user for s in match.seats.select_related("user")}
    log_in(page.context, users[0], live_server_url)
    page.context.add_init_script("localStorage.setItem('parlour.autoroll', '1')")
    page.clock.install()  # time runs as usual; fast_forward jumps the page's timers
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    expect(page.locator("#move-list")).to_contain_text("rolled")  # rolled for them, untouched
    rules = get_rules("ludo")
    for _ in range(20):  # whatever followed, play seat 1 until seat 0's next roll
        m = Match.objects.get(pk=match.pk)
        state = rules.load(m.state)
        if rules.to_move(state) == 0 and str(rules.legal_moves(state)[0]) == "roll":
            break
        if rules.to_move(state) == 1:
            move = str(rules.legal_moves(state)[0])
            in_thread(actions.play_move, match.public_id, users[1], move, m.version)
    now = Match.objects.get(pk=match.pk).version
    expect(page.locator("#match")).to_have_attribute("data-version", str(now))
    rolls = Move.objects.filter(match=match, notation="roll", seat=0).count()
    page.clock.fast_forward(5_000)  # far past auto-roll's 0.6 s
    expect(page.get_by_role("button", name="Roll the die")).to_be_enabled()
    assert Move.objects.filter(match=match, notation="roll", seat=0).count() == rolls
