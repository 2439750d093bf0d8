"""The dice beside the board in a real Chromium (static/js/board.js): a click on
them rolls when the seat may roll, and in Roundabout the die a composed step
uses is dimmed until the step is undone, beside the board and in its hub."""

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
    expect(page.locator("#dice .die")).to_have_count(1, timeout=20_000)
    assert Move.objects.filter(match=match, seat=0, notation="roll").exists()


def test_a_spectator_clicking_the_die_rolls_nothing(browser, live_server_url, celery_worker):
    state = ludo_state(2, phase="roll", pieces=[[10, 20, -1, -1], [-1, -1, -1, 30]])
    match = in_thread(make_match, seats=("human", "easy"), state=state, computer_speed="fast")
    page = browser.new_page()
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    expect(page.locator("#connection-status")).to_contain_text("Live", timeout=20_000)
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
    expect(page.locator("#dice .die.is-used")).to_have_count(0)
    page.locator('#board .bd-target[data-target="dart 1"]').click(force=True)
    page.locator("#board .bd-dest").first.click(force=True)
    expect(page.locator("#board-say")).to_contain_text("Step 1:")
    used = page.locator("#dice .die.is-used")
    expect(used).to_have_count(1)
    step = page.locator("#board-say").text_content()
    assert used.get_attribute("data-die") in step  # "uses the 2" / "the 3": the die the step named
    page.locator("#board-undo").click()
    expect(page.locator("#dice .die.is-used")).to_have_count(0)

#: How each hub die's strike-through line is displayed (a flat line has no box to be "visible").
STRIKES = "[...document.querySelectorAll('#board .ra-die-strike')].map(l => getComputedStyle(l).display)"


def test_the_hub_of_the_roundabout_board_marks_the_die_a_composed_step_uses(page, live_server_url):
    """The dice in the board's hub say which one a step has used, as the header's do:
    struck through (.is-used), until the step is undone; doubles count each die."""
    darts = {0: {0: (3, 14, "cw"), 1: (1, 8, "cw")}, 1: {0: (5, 6, "cw")}}
    state = roundabout_at(darts, "d2-3", {(0, 0)})
    match = in_thread(make_match, "roundabout", ("human", "easy"), state=state)
    open_match(page, live_server_url, match)
    hub = page.locator("#board .ra-dice [data-die]")
    expect(hub).to_have_count(2)
    assert [hub.nth(i).get_attribute("data-die") for i in range(2)] == ["2", "3"]
    expect(page.locator("#board .ra-dice .is-used")).to_have_count(0)
    assert page.evaluate(STRIKES) == ["none", "none"]
    page.locator('#board .bd-target[data-target="dart 1"]').click(force=True)
    page.locator("#board .bd-dest").first.click(force=True)
    expect(page.locator("#board-say")).to_contain_text("Step 1:")
    used = page.locator("#board .ra-dice .is-used")
    expect(used).to_have_count(1)
    assert used.get_attribute("data-die") == page.locator("#dice .die.is-used").get_attribute("data-die")
    assert sorted(page.evaluate(STRIKES)) == ["inline", "none"]  # a line through the used one
    expect(used.locator("text")).to_be_visible()
    page.locator("#board-undo").click()
    expect(page.locator("#board .ra-dice .is-used")).to_have_count(0)


def test_on_doubles_the_hub_marks_one_die_a_step(page, live_server_url):
    darts = {0: {0: (3, 14, "cw"), 1: (1, 8, "cw")}, 1: {0: (5, 6, "cw")}}
    state = roundabout_at(darts, "d2-2", {(0, 0)})
    match = in_thread(make_match, "roundabout", ("human", "easy"), state=state)
    open_match(page, live_server_url, match)
    page.locator('#board .bd-target[data-target="dart 1"]').click(force=True)
    page.locator("#board .bd-dest").first.click(force=True)
    expect(page.locator("#board .ra-dice .is-used")).to_have_count(1)
    expect(page.locator("#board .ra-dice [data-die]").first).to_have_class("is-used")
    page.locator('#board .bd-target[data-target="dart 1"]').click(force=True)
    page.locator("#board .bd-dest").first.click(force=True)
    expect(page.locator("#board-say")).to_contain_text("Step 2:")
    expect(page.locator("#board .ra-dice .is-used")).to_have_count(2)


def test_the_previous_turns_die_is_drawn_as_old_until_the_next_roll(page, live_server_url, celery_worker):
    """Whose die is it? While a seat is to roll, the die shown is the previous
    turn's (a computer's, say): drawn muted and dashed, never as the seat's own."""
    state = ludo_state(2, phase="roll", die=1, pieces=[[10, 20, -1, -1], [-1, -1, -1, 30]])
    match = in_thread(make_match, seats=("human", "easy"), state=state, computer_speed="fast")
    open_match(page, live_server_url, match)
    expect(page.locator("#dice:has(> .is-old) .die")).to_have_count(1)
    page.locator("#dice").click()
    expect(page.locator("#dice:not(:has(> .is-old)) .die")).to_have_count(1, timeout=20_000)


#: For each die in #dice: [its pips (radial-gradient layers), its numeral (::before), shown as a box].
FACES = """() => [...document.querySelectorAll('#dice .die')].map(d => {
  const s = getComputedStyle(d), n = getComputedStyle(d, '::before').content;
  const r = d.getBoundingClientRect();
  return [(s.backgroundImage.match(/radial-gradient/g) || []).length, n, r.width > 20 && r.height > 20];
})"""


def test_each_face_is_drawn_with_its_pips_or_its_numeral(page, live_server_url):
    """A die is one element (board_parts.dice): match.css draws as many pips as
    its data-die says, or, with the dice-numbers setting, the numeral alone."""
    state = ludo_state(2, phase="move", die=1, pieces=[[10, 20, -1, -1], [-1, -1, -1, 30]])
    match = in_thread(make_match, seats=("human", "easy"), state=state)
    open_match(page, live_server_url, match)
    for face in range(1, 7):
        page.evaluate("f => document.querySelector('#dice .die').setAttribute('data-die', f)", str(face))
        assert page.evaluate(FACES) == [[face, "none", True]]
    page.evaluate("() => { document.body.classList.replace('dice-pips', 'dice-numbers')"
                  " || document.body.classList.add('dice-numbers'); }")
    assert page.evaluate(FACES) == [[0, '"6"', True]]
