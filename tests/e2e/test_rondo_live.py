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
    expect(page.locator("#rondo-help")).to_have_text("Choose a space in a blue ring, then its tiles.")
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
        last, can = page.evaluate("""() => ['#board .lm-to', '#board .rb-halo'].map(sel => {
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


#: Each mark around a space, in screen pixels: its shape, stroke width, stroke and fill
#: (strokes in the board's units scaled by the drawing; the marks' own are non-scaling).
MARKS = """() => {
    const px = (el) => {
        const s = getComputedStyle(el);
        const w = parseFloat(s.strokeWidth) || 0;
        const scale = s.vectorEffect === 'non-scaling-stroke' ? 1 : el.getScreenCTM().a;
        return {tag: el.tagName, width: s.stroke === 'none' ? 0 : w * scale, stroke: s.stroke, fill: s.fill};
    };
    const one = (sel) => { const el = document.querySelector(sel); return el && px(el); };
    return {ring: one('#board .rb-halo'), disc: one('#board .rb-space:not(.rb-can) .rb-disc'),
            gray: one('#board .rb-plate') || one('#board .rb-gray .rb-ring'), last: one('#board .lm-to')};
}"""


def test_on_a_phone_the_ring_of_a_space_the_seat_may_take_outweighs_every_public_mark(page, live_server_url):
    """At 390 px the eight gray spaces' surrounds (a gray ring) looked as strong as the
    ring around the spaces the seat may take. Now a gray space sits on a square plate,
    with no outline, and the seat's ring is a solid blue circle wider than any public
    stroke around a space (a space's own coloured edge, the last chain's dashed ring),
    in light, dark and forced colours."""
    from tests.e2e.positions import make_decision
    from tests.e2e.test_contrast import MODES

    page.set_viewport_size({"width": 390, "height": 844})
    match = in_thread(make_decision, "rondo-after-chain")
    log_in(page.context, match.seats.get(index=0).user, live_server_url)
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    expect(page.locator("#board .rb-can").first).to_be_visible()
    expect(page.locator("#board .rb-gray")).to_have_count(8)
    page.emulate_media(reduced_motion="reduce")  # the ring breathes otherwise: measure it at rest
    for mode, media in MODES.items():
        page.emulate_media(**media)
        marks = page.evaluate(MARKS)
        ring, gray = marks["ring"], marks["gray"]
        assert ring["tag"] == "circle" and ring["width"] >= 3.5, (mode, marks)
        assert gray["tag"] != "circle" and gray["width"] == 0, (mode, marks)
        assert gray["fill"] != ring["stroke"], (mode, marks)
        for public in ("disc", "last"):
            assert ring["width"] > marks[public]["width"], (mode, public, marks)
    page.set_viewport_size({"width": 1280, "height": 800})  # and on a desktop's larger board
    marks = page.evaluate(MARKS)
    assert marks["ring"]["width"] > max(marks["disc"]["width"], marks["last"]["width"]), marks


#: Each space's value and colour letter at the page's size: the letter's font size in
#: screen pixels, whether the letter's box overlaps the value's (more than the 1 px two
#: neighbouring glyphs' boxes may share), and whether it stays inside the space's disc.
LETTERS = """() => [...document.querySelectorAll('#board .rb-space')].map(g => {
    const letter = g.querySelector('.rb-letter'), value = g.querySelector('.rb-val');
    const disc = g.querySelector('.rb-disc').getBoundingClientRect();
    const l = letter.getBoundingClientRect(), v = value.getBoundingClientRect();
    const size = parseFloat(getComputedStyle(letter).fontSize) * letter.getScreenCTM().a;
    const cx = disc.left + disc.width / 2, cy = disc.top + disc.height / 2;
    const far = Math.max(...[l.left, l.right].flatMap(x => [l.top, l.bottom].map(
        y => Math.hypot(x - cx, y - cy))));
    return {space: g.dataset.space, size: size, text: letter.textContent,
            overlap: l.left < v.right - 1 && v.left < l.right - 1
                     && l.top < v.bottom - 1 && v.top < l.bottom - 1,
            inside: far <= disc.width / 2};
})"""


def test_on_a_phone_each_space_s_colour_letter_is_big_enough_to_read(page, live_server_url):
    """The letter under each space's value (so colour is never the only cue) was
    5 px high at 390 px wide: now it sits beside the value, at least 7.5 px, inside the
    space's disc, clear of the value."""
    from tests.e2e.positions import make_decision

    page.set_viewport_size({"width": 390, "height": 844})
    match = in_thread(make_decision, "rondo-place")
    log_in(page.context, match.seats.get(index=0).user, live_server_url)
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    spaces = page.evaluate(LETTERS)
    assert len(spaces) == 80
    assert {s["text"] for s in spaces} == set("YRPBG")
    small = [s for s in spaces if s["size"] < 7.5]
    assert not small, small[:3]
    assert not [s for s in spaces if s["overlap"] or not s["inside"]], spaces[:3]


def _compose_two(page):
    """Place on the start space (its first face-up choice), then on the next space the
    chain may take (its first choice): a chain of two, drawn on the board."""
    from tests.e2e.positions import _rondo_start

    start, _ = _rondo_start()
    page.locator(f"#rs-{start}").click()
    page.locator("#rondo-picker .rondo-up").first.click()
    page.locator("#board .rb-can").first.click()
    page.locator("#rondo-picker .rondo-up, #rondo-picker .rondo-down").first.click()
    expect(page.locator("#rondo-chain-list li")).to_have_count(2)


def test_clear_chain_takes_the_whole_chain_back_by_touch_and_by_keyboard(page, live_server_url):
    """Only Undo took placements back, one at a time (Esc on the board cleared it all,
    but a phone has no Esc). Clear chain, beside Undo, appears once the chain holds a
    placement and takes it all back: the rack's tiles are whole again, the board's
    previews gone, focus on the board's first space."""
    from tests.e2e.positions import make_decision

    page.set_viewport_size({"width": 390, "height": 844})
    match = in_thread(make_decision, "rondo-pick")
    log_in(page.context, match.seats.get(index=0).user, live_server_url)
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    clear = page.get_by_role("button", name="Clear chain")
    expect(clear).to_be_hidden()
    _compose_two(page)
    # The chain's tiles are on the board as they will lie, in the seat's own page only.
    expect(page.locator("#board .rb-preview")).to_have_count(2)
    expect(page.locator("#rondo-rack .rb-used")).to_have_count(2)
    expect(clear).to_be_visible()
    expect(clear).to_be_enabled()
    box = clear.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44, box
    assert 0 <= box["y"] and box["y"] + box["height"] <= 844, "Clear chain is off the phone's screen"
    assert abs(box["y"] - page.locator("#rondo-undo").bounding_box()["y"]) < 2, "beside Undo"
    clear.click()
    expect(page.locator("#rondo-chain-list li")).to_have_count(0)
    expect(page.locator("#rondo-running")).to_have_text("0")
    expect(page.locator("#rondo-rack .rb-used")).to_have_count(0)
    expect(page.locator("#board .rb-preview, #board .rb-pending")).to_have_count(0)
    expect(clear).to_be_hidden()
    expect(page.locator("#rondo-undo")).to_be_disabled()
    assert page.evaluate("document.activeElement.classList.contains('rb-can')"), "focus left the board"
    # The keyboard: Tab to it, Enter.
    _compose_two(page)
    clear.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#rondo-chain-list li")).to_have_count(0)
    assert page.evaluate("document.activeElement.classList.contains('rb-can')"), "focus left the board"
    # The same chain can be composed again and sent.
    _compose_two(page)
    page.locator("#rondo-send").click()
    expect(page.locator("#board [data-tile-space]")).to_have_count(2)
