"""The match page between the decisions, in a real Chromium: what a stray tap,
a shrinking panel, a shorter name or a letter key must not do (found by a
new player's walkthrough beside Board Game Arena)."""

import re

from playwright.sync_api import expect

from games.models import Match
from tests.e2e.test_board_play import open_match
from tests.e2e.test_layout import decision_page
from tests.e2e.test_live_play import in_thread
from tests.factories import ludo_state, make_match

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
ROLL = '#controls form:has(input[name="move"][value="roll"]) button'


def _ludo_to_roll(host=False):
    state = ludo_state(2, pieces=[[10, 20, -1, -1], [-1, -1, -1, 30]], autoplay_forced=False)
    match = make_match(seats=("human", "easy"), state=state, computer_speed="slow")
    if host:
        Match.objects.filter(pk=match.pk).update(host_id=match.seats.get(index=0).user_id)
    return match


def test_pause_asks_first_so_a_stray_tap_changes_nothing(page, live_server_url, celery_worker):
    # After a turn is sent the controls shrink and Pause can slide under the finger.
    match = in_thread(_ludo_to_roll, host=True)
    page.set_viewport_size(PHONE)
    open_match(page, live_server_url, match)
    asked = []
    page.on("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.locator(".pause-form button").click()
    page.wait_for_timeout(500)
    assert asked and "Pause" in asked[0]
    assert in_thread(lambda: Match.objects.get(pk=match.pk).status) == "active"
    expect(page.locator("#status")).not_to_contain_text("Paused")


def test_on_a_desktop_the_move_list_keeps_its_newest_line_in_view(page, live_server_url, celery_worker):
    match = in_thread(_ludo_to_roll)
    page.set_viewport_size(DESKTOP)
    open_match(page, live_server_url, match)
    expect(page.locator('#frame-version:not([data-kind])')).to_have_count(0)  # the first snapshot came
    # A long match's list (the page keeps 200 turns), scrolled to its end as frames leave it.
    page.evaluate("""() => { const list = document.querySelector('#move-list');
        for (let i = 0; i < 80; i++) { const t = document.createElement('li'); t.className = 'turn';
          t.innerHTML = '<ol class="turn-lines"><li class="move-line">line ' + i + '</li></ol>';
          list.appendChild(t); }
        list.scrollTop = list.scrollHeight; }""")
    page.locator(ROLL).click()  # the decision that comes is taller than Roll: the list shrinks
    expect(page.locator("#board .bd-target").first).to_be_visible(timeout=20_000)
    page.wait_for_timeout(300)
    newest, box = page.evaluate("""() => { const l = document.querySelector('#move-list');
        const lines = l.querySelectorAll('.move-line');
        return [lines[lines.length - 1].getBoundingClientRect().bottom,
                l.getBoundingClientRect().bottom]; }""")
    assert newest <= box + 1, (newest, box)


def test_on_a_phone_the_board_stays_put_when_a_shorter_name_is_to_move(browser, live_server_url):
    # Rondo has no dice beside the status line to hold its row's height.
    context, page = decision_page(browser, live_server_url, "rondo-place", PHONE)
    top = page.evaluate("document.querySelector('#board').getBoundingClientRect().top")
    page.evaluate("document.querySelector('#status .turn strong').textContent = 'Computer 2'")
    assert page.evaluate("document.querySelector('#board').getBoundingClientRect().top") == top
    context.close()


def test_on_a_phone_a_seat_with_its_result_keeps_its_name(browser, live_server_url):
    context, page = decision_page(browser, live_server_url, "ludo-roll", PHONE)
    # What a finished ranked match's rows hold beside each name (the seats partial).
    widths = page.evaluate("""() => [...document.querySelectorAll('#seats .seat')].map(row => {
        row.insertAdjacentHTML('beforeend', '<span class="rating">1500? → 1480? ' +
          '<span class="rating-change">(−20)</span></span><span class="gone">Left</span>' +
          '<span class="rank">Place 2</span>');
        return row.querySelector('.name').getBoundingClientRect().width; })""")
    assert min(widths) >= 100, widths
    context.close()


def test_a_letter_key_acts_from_a_button_and_takes_the_focus_to_the_board(page, live_server_url,
                                                                         celery_worker):
    match = in_thread(_ludo_to_roll)
    page.set_viewport_size(DESKTOP)
    open_match(page, live_server_url, match)
    page.locator(".leave-form button").focus()
    page.keyboard.press("r")  # rolls from there
    expect(page.locator("#board .bd-target").first).to_be_visible(timeout=20_000)
    expect(page.locator("#controls input[name=move][value=roll]")).to_have_count(0)
    page.locator(".leave-form button").focus()
    page.keyboard.press("n")  # the next piece: the focus goes to the board
    assert page.evaluate("document.querySelector('#board').parentElement.contains(document.activeElement)")
    expect(page.locator("#board .bd-target.is-cursor")).to_have_count(1)


def test_the_snapshot_at_the_pages_own_version_leaves_the_board_and_controls_alone(page, live_server_url):
    """The socket's snapshot at connect names the version the page was rendered at:
    the page keeps its own board and controls (a tap already on them is not undone
    by a redraw), then says "Live". The nodes are marked before the socket can
    open (an init script, at DOMContentLoaded); a swap would replace them."""
    match = in_thread(_ludo_to_roll)
    page.set_viewport_size(PHONE)
    page.add_init_script("""document.addEventListener("DOMContentLoaded", () => {
        for (const sel of ["#board", "#controls", "#seats"]) {
          const el = document.querySelector(sel); if (el) el.dataset.rendered = "page"; } });""")
    open_match(page, live_server_url, match)
    expect(page.locator("#connection-status")).to_have_text("Live")
    assert page.locator("#match").get_attribute("data-synced") == str(match.version)
    for sel in ("#board", "#controls"):
        assert page.locator(sel).get_attribute("data-rendered") == "page", f"{sel} was swapped"
    page.locator(ROLL).click()  # and the page goes on with the updates that follow
    later = re.compile(rf"^(?!{match.version}$)\d+$")
    expect(page.locator("#match")).to_have_attribute("data-version", later)
