"""Playing on the board in a real Chromium (static/js/board.js): each game by
clicking its pieces, darts or spaces from a position near the end, and one turn
of each with the keyboard only. PARLOUR_BOARD_SHOTS=<dir> also saves screenshots
at 1280x800 and 390x844."""

import os

from playwright.sync_api import expect

from games.engine import get_rules
from games.models import Match, Move
from tests.e2e.test_live_play import in_thread, live, log_in
from tests.e2e.test_rondo_live import near_the_end as rondo_near_the_end
from tests.engine.roundabout_helpers import position
from tests.factories import ludo_state, make_match

RA = get_rules("roundabout")

SHOTS = os.environ.get("PARLOUR_BOARD_SHOTS")
PHONE = {"width": 390, "height": 844}


def shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))


def assert_tap_targets(page):
    """Every target on the board is at least 44 px across."""
    boxes = page.evaluate("""() => Array.from(document.querySelectorAll('#board .bd-target'),
        (g) => { const r = g.getBoundingClientRect(); return [r.width, r.height]; })""")
    assert boxes and all(w >= 44 and h >= 44 for w, h in boxes), boxes


def open_match(page, live_server_url, match, seat=0):
    """Open ``match`` as the player in ``seat``; return once the socket's first
    frames (the snapshot: the public frame, then the seat's controls) have
    landed, so that a click or a key is not undone by the snapshot redrawing
    the board and the controls (ci: a Rondo picker closed, a Roll button the
    snapshot drew enabled again after its roll had gone)."""
    log_in(page.context, match.seats.get(index=seat).user, live_server_url)
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    page.wait_for_selector("#match[data-synced]", state="attached")


def played(match, **kw):
    return list(Move.objects.filter(match=match, actor="seat", **kw).values_list("notation", flat=True))


def test_ludo_by_clicking_the_board(page, live_server_url, celery_worker, csp_violations):
    # A 6 was rolled: the base (one choice for its two pieces) or piece 3, which gets home.
    state = ludo_state(2, phase="move", die=6, pieces=[[-1, -1, 56, 50], [-1, -1, -1, 30]],
                       autoplay_forced=False)
    match = in_thread(make_match, seats=("human", "easy"), state=state, computer_speed="fast")
    page.set_viewport_size(PHONE)
    open_match(page, live_server_url, match)
    targets = page.locator("#board .bd-target")
    expect(targets).to_have_count(2)  # the base and piece 3; never one per base piece
    expect(page.locator("#controls button", has_text="Bring a piece out")).to_have_count(1)
    assert_tap_targets(page)
    shot(page, "ludo-390-targets")
    targets.nth(1).click()
    expect(page.locator("#board .bd-dest")).to_have_count(1)
    expect(page.locator("#board .bd-ghost.is-preview")).to_have_count(1)
    expect(page.locator("#board-say")).to_contain_text("Move piece 3")
    shot(page, "ludo-390-selected")
    page.set_viewport_size({"width": 1280, "height": 800})
    shot(page, "ludo-1280-selected")
    page.locator("#board .bd-dest").click()
    expect(page.locator("#board .lm-home")).to_have_count(1, timeout=20_000)
    assert played(match, seat=0)[-1:] == ["p3"]
    shot(page, "ludo-1280-last-move")
    assert csp_violations == []


def test_ludo_a_pile_and_a_way_along_the_track_on_a_phone(page, live_server_url, celery_worker):
    # Red: pieces 0 and 1 on cell 20 (a pile), 2 on the star cell 8 beside yellow's 0, 3 at
    # progress 49; a 3 takes piece 3 round the arm's end into its home lane.
    state = ludo_state(2, phase="move", die=3, pieces=[[20, 20, 8, 49], [34, -1, -1, 30]],
                       autoplay_forced=False)
    match = in_thread(make_match, seats=("human", "human"), state=state)
    page.set_viewport_size(PHONE)
    open_match(page, live_server_url, match)
    targets = page.locator("#board .bd-target")
    expect(targets).to_have_count(3)  # the pile is one target
    assert_tap_targets(page)
    expect(page.locator("#board .lb-count text")).to_have_text(["×2"])
    # The badge is readable at 390 px and stays above the highlights board.js adds (polled:
    # a frame may swap the board in between).
    page.wait_for_function("""() => {
        const badge = document.querySelector('#board .lb-count');
        const layer = document.querySelector('#board .bd-layer');
        if (!badge || !layer) return false;
        const r = badge.getBoundingClientRect();
        return r.width >= 16 && r.height >= 11
            && !!(layer.compareDocumentPosition(badge) & Node.DOCUMENT_POSITION_FOLLOWING);
    }""", timeout=20_000)
    page.locator('#board .bd-target[data-target="p3"]').click()
    way = "0.5,8.5 0.5,7.5 1.5,7.5 2.5,7.5"
    # Progress 49 (grid square (0, 8)), 50 (0, 7), then home lane steps 1 (1, 7) and 2 (2, 7).
    expect(page.locator("#board polyline.bd-path.is-preview")).to_have_attribute("points", way)
    shot(page, "ludo-390-pile-way")
    page.locator("#board .bd-target.is-selected").click()  # the chosen piece again: it moves
    expect(page.locator("#board polyline.lm-path")).to_have_attribute("points", way, timeout=20_000)
    assert played(match, seat=0) == ["p3"]
    shot(page, "ludo-390-last-way")


def test_ludo_from_near_the_end_to_the_result(page, live_server_url, celery_worker):
    state = ludo_state(2, phase="move", die=6, pieces=[[56, 56, 56, 50], [-1, -1, -1, 30]],
                       autoplay_forced=False)
    match = in_thread(make_match, seats=("human", "easy"), state=state, computer_speed="fast")
    open_match(page, live_server_url, match)
    page.locator("#board .bd-target").click()
    page.locator("#board .bd-target.is-selected").click()  # the chosen piece again: it moves
    expect(page.locator("#status")).to_contain_text("Match over.", timeout=20_000)
    assert Match.objects.get(pk=match.pk).status == "finished"


def test_ludo_one_turn_with_the_keyboard_only(page, live_server_url, celery_worker):
    state = ludo_state(2, phase="roll", pieces=[[10, 20, -1, -1], [-1, -1, -1, 30]])
    match = in_thread(make_match, seats=("human", "easy"), state=state, computer_speed="fast")
    open_match(page, live_server_url, match)
    stage = page.locator("#board").locator("..")
    stage.focus()
    page.keyboard.press("r")
    expect(page.locator("#board .bd-target")).not_to_have_count(0, timeout=20_000)
    # Focus stayed on the board through the frame.
    assert page.evaluate("document.activeElement !== document.body")
    page.keyboard.press("n")
    expect(page.locator("#board .bd-target.is-selected")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator("#board .bd-target.is-selected")).to_have_count(0)
    page.keyboard.press("n")
    page.keyboard.press("Enter")
    expect(page.locator("#board .lm:not(.lm-keep)")).to_have_count(1, timeout=20_000)
    record = list(Move.objects.filter(match=match).order_by("ply").values_list("notation", "actor", "seat"))
    assert any(n[0] == "p" for n in played(match, seat=0)), record  # a piece moved (a 6 rolls again)
    assert page.evaluate("document.activeElement !== document.body")


def roundabout_at(darts, dice, circuit=()):
    """A Roundabout state where seat 0 has rolled ``dice`` (a "d2-3" outcome)."""
    state = position(2, darts, turn=0, circuit=circuit)
    return RA.dump(RA.play(RA.play(state, "roll"), dice))


def test_roundabout_turn_composed_on_the_board_and_sent_once(page, live_server_url, celery_worker,
                                                             csp_violations):
    darts = {0: {0: (3, 14, "cw"), 1: (1, 8, "cw")}, 1: {0: (5, 6, "cw")}}
    state = roundabout_at(darts, "d2-3", {(0, 0)})
    match = in_thread(make_match, "roundabout", ("human", "easy"), state=state, computer_speed="fast")
    page.set_viewport_size(PHONE)
    open_match(page, live_server_url, match)
    expect(page.locator("#board .bd-target")).to_have_count(2)
    assert_tap_targets(page)
    expect(page.locator(".board-help")).to_contain_text("Step 1 uses one die, step 2 the other")
    page.locator('#board .bd-target[data-target="dart 1"]').click(force=True)
    dests = page.locator("#board .bd-dest")
    expect(dests.first).to_be_visible()
    shot(page, "roundabout-390-selected")
    # Step 1: ring 1's spots are 20 px apart on a phone, but a tap squarely on one (on
    # its middle, the dart's body's size: roundabout_tags "hs") means it, without asking.
    dests.first.click(force=True)
    expect(page.locator(".bd-chooser")).to_have_count(0)
    expect(page.locator("#board-say")).to_contain_text("Step 1:")
    expect(page.locator("#board-confirm")).to_be_disabled()  # the other die must be used
    page.locator("#board-undo").click()  # the step is taken back
    expect(page.locator("#board .bd-ghost.is-composed")).to_have_count(0)
    page.locator('#board .bd-target[data-target="dart 1"]').click(force=True)
    page.locator("#board .bd-dest").first.click(force=True)
    page.locator('#board .bd-target[data-target="dart 1"]').click(force=True)
    page.locator("#board .bd-dest").first.click(force=True)  # step 2: its spots are far apart
    expect(page.locator("#board .bd-ghost.is-composed")).to_have_count(2)
    shot(page, "roundabout-390-composed")
    page.set_viewport_size({"width": 1280, "height": 800})
    shot(page, "roundabout-1280-composed")
    page.locator("#board-confirm").click()
    expect(page.locator("#board .lm")).to_have_count(1, timeout=20_000)
    rows = list(Move.objects.filter(match=match, actor="seat", seat=0)
                .values_list("notation", "version_after"))
    assert len(rows) == 2 and rows[0][1] == rows[1][1], rows  # one message, one change
    assert rows[0][0][0] == rows[1][0][0] == "1"
    shot(page, "roundabout-1280-last-move")
    assert csp_violations == []


def test_roundabout_from_near_the_end_to_the_result_with_the_keyboard(page, live_server_url,
                                                                     celery_worker):
    darts = {0: {0: (3, 14, "cw")}, 1: {0: (5, 6, "cw")}}
    state = roundabout_at(darts, "d2-3", {(0, 0)})
    match = in_thread(make_match, "roundabout", ("human", "easy"), state=state, computer_speed="fast")
    open_match(page, live_server_url, match)
    page.locator("#board").locator("..").focus()
    page.keyboard.press("n")  # dart 0
    expect(page.locator("#board .bd-target.is-selected")).to_have_count(1)
    say = page.locator("#board-say")
    for _ in range(8):  # cycle its destinations to one that goes home
        if "home and off the board?" in say.inner_text():
            break
        page.keyboard.press("t")
    expect(page.locator("#board .bd-dest.is-chosen")).to_have_count(1)
    page.keyboard.press("Enter")  # step 1: home and off the board ends the turn (and the match)
    page.keyboard.press("Enter")  # confirm
    expect(page.locator("#status")).to_contain_text("Match over.", timeout=20_000)


def test_rondo_one_turn_with_the_keyboard_only(page, live_server_url, celery_worker):
    state, board, start, colour = rondo_near_the_end()
    match = in_thread(make_match, "rondo", seats=("human", "easy", "normal"), state=state,
                      computer_speed="fast")
    page.set_viewport_size(PHONE)
    open_match(page, live_server_url, match)
    expect(page.locator("#board .rb-can")).not_to_have_count(0)
    shot(page, "rondo-390-targets")
    page.locator("#board").locator("..").focus()
    page.keyboard.press("n")  # the first space the chain may start on
    assert page.evaluate("document.activeElement.classList.contains('rb-can')")
    page.keyboard.press("Enter")  # its tiles
    expect(page.locator("#rondo-picker button").first).to_be_focused()
    shot(page, "rondo-390-picker")
    page.set_viewport_size({"width": 1280, "height": 800})
    shot(page, "rondo-1280-picker")
    page.keyboard.press("Enter")
    expect(page.locator("#rondo-chain-list li")).to_have_count(1)
    for _ in range(40):
        if page.evaluate("document.activeElement.id") == "rondo-send":
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.locator("#status")).to_contain_text("Match over.", timeout=20_000)
    assert played(match, seat=0)[-1] == "end"
    shot(page, "rondo-1280-last-move")
