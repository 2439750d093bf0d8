"""The dice beside the board in a real Chromium (static/js/board.js): a click on
them rolls when the seat may roll, and in Roundabout the die a composed step
uses is dimmed until the step is undone."""

from playwright.sync_api import expect

from games.models import Move
from tests.e2e.test_board_play import open_match, roundabout_at
from tests.e2e.test_live_play import in_thread
from tests.factories import ludo_state, make_match


def test_a_click_on_the_die_rolls_it(page, live_server_url, celery_worker):
    state = ludo_state(2, phase="roll", pieces=[[10, 20, -1, -1], [-1, -1, -1, 30]])
    match = in_thread(make_match, seats=("human", "easy"), state=state, computer_speed="fast")
    open_match(page, live_server_url, match)
    expect(page.locator("#dice.can-roll")).to_have_count(1)
    page.locator("#dice").click()
    expect(page.locator("#dice .die-pips")).to_have_count(1, timeout=10_000)
    assert Move.objects.filter(match=match, seat=0, notation="roll").exists()


def test_a_spectator_clicking_the_die_rolls_nothing(browser, live_server_url, celery_worker):
    state = ludo_state(2, phase="roll", pieces=[[10, 20, -1, -1], [-1, -1, -1, 30]])
    match = in_thread(make_match, seats=("human", "easy"), state=state, computer_speed="fast")
    page = browser.new_page()
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    expect(page.locator("#connection-status")).to_contain_text("Live", timeout=10_000)
    expect(page.locator("#dice.can-roll")).to_have_count(0)
    page.locator("#dice").click()
    page.wait_for_timeout(500)
    assert not Move.objects.filter(match=match, notation="roll").exists()
    page.close()


def test_the_die_a_composed_step_uses_is_dimmed(page, live_server_url, celery_worker):
    darts = {0: {0: (3, 14, "cw"), 1: (1, 8, "cw")}, 1: {0: (5, 6, "cw")}}
    state = roundabout_at(darts, "d2-3", {(0, 0)})
    match = in_thread(make_match, "roundabout", ("human", "easy"), state=state, computer_speed="fast")
    open_match(page, live_server_url, match)
    expect(page.locator("#dice .die-pips.is-used")).to_have_count(0)
    page.locator('#board .bd-target[data-target="dart 1"]').click(force=True)
    page.locator("#board .bd-dest").first.click(force=True)
    expect(page.locator("#board-say")).to_contain_text("Step 1:")
    used = page.locator("#dice .die-pips.is-used")
    expect(used).to_have_count(1)
    step = page.locator("#board-say").text_content()
    assert used.get_attribute("data-die") in step  # "uses the 2" / "the 3": the die the step named
    page.locator("#board-undo").click()
    expect(page.locator("#dice .die-pips.is-used")).to_have_count(0)


def test_the_previous_turns_die_is_drawn_as_old_until_the_next_roll(page, live_server_url, celery_worker):
    """Whose die is it? While a seat is to roll, the die shown is the previous
    turn's (a computer's, say): drawn muted and dashed, never as the seat's own."""
    state = ludo_state(2, phase="roll", die=1, pieces=[[10, 20, -1, -1], [-1, -1, -1, 30]])
    match = in_thread(make_match, seats=("human", "easy"), state=state, computer_speed="fast")
    open_match(page, live_server_url, match)
    expect(page.locator("#dice.is-old .die-pips")).to_have_count(1)
    page.locator("#dice").click()
    expect(page.locator("#dice:not(.is-old) .die-pips")).to_have_count(1, timeout=10_000)
