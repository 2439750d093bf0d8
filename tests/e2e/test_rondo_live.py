"""Rondo in a real Chromium against daphne, Redis and a Celery worker: a solo
match from near its end to the result, the chain composed on the board."""

import re

from playwright.sync_api import expect

from games import actions
from games.engine import get_rules
from games.models import Match, Move
from tests.e2e.test_live_play import in_thread, live, log_in
from tests.engine.rondo_helpers import position
from tests.factories import make_match

RONDO = get_rules("rondo")
COLOURS = ("yellow", "red", "purple", "blue", "green")


def near_the_end():
    """Seat 0 (the human) to move in the final round; seat 1 (a computer) then
    plays the round's last turn, and the match ends before seat 2 would start
    the next round."""
    board = RONDO.board("blue")
    start = max((i for i in range(board.size) if board.start_mask >> i & 1), key=lambda i: board.value[i])
    colour = COLOURS[board.colour[start]]
    other = next(c for c in COLOURS if c != colour)
    state = position(RONDO, [[colour, colour, other], ["red", "blue"], ["green"]], turn=0, starter=2,
                     ending=True, scores=[10, 12, 9])
    return RONDO.dump(state), board, start, colour


def test_a_solo_match_composed_on_the_board_to_its_result(page, live_server_url, celery_worker,
                                                          csp_violations):
    state, board, start, colour = near_the_end()
    match = in_thread(make_match, "rondo", seats=("human", "easy", "normal"), state=state,
                      computer_speed="fast")
    user = match.seats.get(index=0).user
    log_in(page.context, user, live_server_url)
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    # Only the player's own rack is on the page; the composer replaces the plain form.
    expect(page.locator("[data-rack-seat]")).to_have_count(1)
    expect(page.locator("#rondo-rack [data-tile-colour]")).to_have_count(3)
    expect(page.locator("#rondo-composer")).to_be_visible()
    expect(page.locator(".rondo-nojs")).to_be_hidden()
    # One short line under the board; the rest in the board's help box (the Settings tab).
    expect(page.locator("#rondo-help")).to_have_text("Choose a highlighted space, then its tiles.")
    expect(page.locator("#board-keys #board-help")).to_contain_text(
        "Each next space must touch the one before.")
    space = page.locator(f"#rs-{board.ids[start]}")
    expect(space).to_have_class(re.compile(r"\brb-can\b"))
    # Keyboard: focus the space, Enter opens the tile picker.
    space.focus()
    page.keyboard.press("Enter")
    page.locator("#rondo-picker").get_by_role("button", name=f"2 {colour} face up").click()
    value = board.value[start]
    expect(page.locator("#rondo-running")).to_have_text(str(2 * value))
    page.locator("#rondo-undo").click()
    expect(page.locator("#rondo-running")).to_have_text("0")
    space.click()
    page.locator("#rondo-picker").get_by_role("button", name=f"2 {colour} face up").click()
    expect(page.locator("#rondo-chain-list li")).to_have_count(1)
    page.locator("#rondo-send").click()
    # The move list says it in words, the space as the board shows it; its code is the line's title.
    line = page.locator(f'#move-list li[title="Space {board.ids[start]}"]')
    expect(line).to_contain_text(f"placed 2 {colour} tiles on a {colour} {value}")
    status = page.locator("#status")
    expect(status).to_contain_text("Match over.", timeout=20_000)
    m = Match.objects.get(pk=match.pk)
    assert m.status == "finished"
    final = RONDO.load(m.state)
    assert final.scores[0] == 10 + 2 * value
    assert Move.objects.filter(match=m, actor="seat", seat=1).exists(), "the computer played the last turn"
    ranks = dict(m.seats.values_list("index", "rank"))
    assert sorted(ranks.values())[0] == 1
    # Once over, every rack is shown on the board.
    expect(page.locator("#board [data-rack-seat]")).to_have_count(3)
    assert csp_violations == []


def test_when_the_turn_comes_focus_is_on_the_board_not_on_draw(page, live_server_url):
    """The other seat draws; the turn passes to this page's seat, whose controls
    hold the chain composer and the Draw button: focus goes to the board (before,
    it landed on Draw, and Enter by reflex drew instead of placing)."""
    board = RONDO.board("blue")
    start = next(i for i in range(board.size) if board.start_mask >> i & 1)
    colour = COLOURS[board.colour[start]]
    state = position(RONDO, [[colour, "red"], ["red", "blue"]], turn=1, starter=1)
    match = in_thread(make_match, "rondo", seats=("human", "human"), state=RONDO.dump(state))
    users = {s.index: s.user for s in match.seats.select_related("user")}
    log_in(page.context, users[0], live_server_url)
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    expect(page.locator("#rondo-draw-button")).to_have_count(0)
    in_thread(actions.play_move, match.public_id, users[1], "draw", Match.objects.get(pk=match.pk).version)
    expect(page.locator("#controls")).to_have_attribute("data-my-turn", "")
    expect(page.locator("#rondo-draw-button")).to_be_visible()
    expect(page.locator(f"#rs-{board.ids[start]}")).to_have_class(re.compile(r"\brb-can\b"))
    focus = page.evaluate("""() => { const a = document.activeElement;
        return {stage: !!a.closest('.board-stage'), id: a.id, tag: a.tagName}; }""")
    assert focus["stage"] and focus["id"] != "rondo-draw-button", focus
    # Enter there starts the chain on the board (the first highlighted space), it does not draw.
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.classList.contains('rb-can')")
    expect(page.locator("#rondo-draw-button")).to_be_visible()


def test_the_last_chain_and_where_the_seat_may_place_look_different_in_every_mode(page, live_server_url):
    """The other seat's last chain (a dashed ring and a numbered badge per space,
    for everyone) and this seat's highlights (a solid glow, from its own frame)
    were both black rings, which a new player could not tell apart."""
    from tests.e2e.positions import make_decision
    from tests.e2e.test_contrast import MODES

    match = in_thread(make_decision, "rondo-after-chain")
    log_in(page.context, match.seats.get(index=0).user, live_server_url)
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    expect(page.locator("#board .lm-label")).to_have_count(2)
    expect(page.locator("#board .lm-label text")).to_have_text(["1", "2"])
    expect(page.locator("#board .rb-can").first).to_be_visible()
    for mode, media in MODES.items():
        page.emulate_media(**media)
        last, can = page.evaluate("""() => ['#board .lm-to', '#board .rb-can .rb-halo'].map(sel => {
            const s = getComputedStyle(document.querySelector(sel));
            return {stroke: s.stroke, dash: s.strokeDasharray, fill: s.fill};
        })""")
        assert last["dash"] not in ("", "none") and can["dash"] in ("", "none"), (mode, last, can)
        assert last["stroke"] != can["stroke"], (mode, last, can)
        assert can["fill"] not in ("none", ""), (mode, can)
    # The public board never carries them: the highlights are drawn here, from the seat's frame.
    anonymous = page.context.browser.new_page()
    anonymous.goto(f"{live_server_url}/m/{match.public_id}/")
    expect(anonymous.locator("#board .lm-label")).to_have_count(2)
    expect(anonymous.locator("#board .rb-can, #board .rb-halo")).to_have_count(0)
    anonymous.close()


#: What a snapshot frame does to the seat's controls: the same markup, swapped in.
SWAP_THE_SAME_CONTROLS = """() => {
    const controls = document.getElementById('controls');
    const again = document.createElement('div');
    again.innerHTML = controls.outerHTML;
    controls.replaceWith(again.firstElementChild);
    document.dispatchEvent(new CustomEvent('htmx:wsAfterMessage'));
}"""


def test_the_socket_s_first_snapshot_keeps_the_open_picker_and_the_chain(page, live_server_url):
    """The same decision swapped in again (the snapshot that follows the page's
    load by a moment) keeps what the player composed: before, a space chosen in
    that moment lost its tile picker."""
    from tests.e2e.positions import ON_PAGE, make_decision

    match = in_thread(make_decision, "rondo-pick")
    log_in(page.context, match.seats.get(index=0).user, live_server_url)
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    ON_PAGE["rondo-pick"](page)
    page.evaluate(SWAP_THE_SAME_CONTROLS)
    expect(page.locator("#rondo-picker .rondo-up")).to_have_count(3)
    page.locator("#rondo-picker .rondo-up").first.click()
    expect(page.locator("#rondo-chain-list li")).to_have_count(1)
    page.evaluate(SWAP_THE_SAME_CONTROLS)
    expect(page.locator("#rondo-chain-list li")).to_have_count(1)
    expect(page.locator("#rondo-send")).to_be_enabled()
