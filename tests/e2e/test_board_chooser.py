"""Taps on a phone's board that could mean more than one target (static/js/board.js
ask()): at 390x844 Roundabout's darts where a match starts are 20 px apart, Rondo's
spaces 23 to 25 px and Ludo's cells 24, so a tap between two of them asks "Which
one?" with a 44 px button for each instead of guessing; a tap squarely on a target
with no close neighbour acts at once, and so does a tap on a Roundabout dart's own
body (its choices' "hs"), however close its neighbours."""

from playwright.sync_api import expect

from games.engine import get_rules
from tests.e2e.positions import make_decision
from tests.e2e.test_board_play import roundabout_at
from tests.e2e.test_live_play import in_thread, live, log_in
from tests.engine.rondo_helpers import position as rondo_position
from tests.factories import ludo_state, make_match

PHONE = {"width": 390, "height": 844}

CENTRE = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                       return [r.left + r.width / 2, r.top + r.height / 2]; }"""


def open_decision(page, live_server_url, name):
    return open_match(page, live_server_url, in_thread(make_decision, name))


def open_match(page, live_server_url, match):
    page.set_viewport_size(PHONE)
    log_in(page.context, match.seats.get(index=0).user, live_server_url)
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    # The socket's first frames (the snapshot) swap the board and the controls: a chooser
    # open before they land would close (a new frame closes it), so tap after them.
    page.wait_for_selector("#match[data-synced]", state="attached")
    return match


def midpoint(page, a, b):
    (ax, ay), (bx, by) = page.evaluate(CENTRE, a), page.evaluate(CENTRE, b)
    return (ax + bx) / 2, (ay + by) / 2, ((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5


def assert_chooser_fits(page, count):
    """The chooser is open with ``count`` buttons, each at least 44 px each way, all
    inside the viewport, and focus is in it."""
    chooser = page.locator(".bd-chooser")
    expect(chooser).to_be_visible()
    expect(chooser).to_contain_text("Which one?")
    buttons = chooser.locator("button")
    expect(buttons).to_have_count(count)
    for i in range(count):
        box = buttons.nth(i).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
        assert box["x"] >= 0 and box["y"] >= 0, box
        assert box["x"] + box["width"] <= PHONE["width"] and box["y"] + box["height"] <= PHONE["height"], box
    assert page.evaluate("!!document.activeElement.closest('.bd-chooser')")


def focus_on_the_stage(page):
    return page.evaluate("document.activeElement === document.querySelector('#board').parentElement")


def open_start_chooser(page, live_server_url):
    """Where a Roundabout match starts, tap between ring 1's two darts (side by side,
    20 px apart on a phone). Returns where the tap was: (x, y)."""
    open_decision(page, live_server_url, "roundabout-start")
    dart0, dart1 = ('#board .bd-target[data-target="dart 0"] .bd-hit',
                    '#board .bd-target[data-target="dart 1"] .bd-hit')
    x, y, apart = midpoint(page, dart0, dart1)
    assert apart < 44, apart
    page.mouse.click(x, y)
    return x, y


def test_a_tap_between_two_close_darts_asks_which_one(page, live_server_url, csp_violations):
    x, y = open_start_chooser(page, live_server_url)
    assert_chooser_fits(page, 2)
    buttons = page.locator(".bd-chooser button")
    expect(buttons.nth(0)).to_contain_text("Dart")
    texts = sorted(buttons.all_inner_texts())
    assert texts[0].startswith("Dart 0 on") and texts[1].startswith("Dart 1 on"), texts
    # Both darts are marked on the board meanwhile; nothing is selected yet.
    expect(page.locator("#board .bd-target.is-asked")).to_have_count(2)
    expect(page.locator("#board .bd-target.is-selected")).to_have_count(0)
    # Escape closes it and changes nothing; focus is back on the board.
    page.keyboard.press("Escape")
    expect(page.locator(".bd-chooser")).to_have_count(0)
    expect(page.locator("#board .bd-target.is-asked")).to_have_count(0)
    expect(page.locator("#board .bd-target.is-selected")).to_have_count(0)
    assert focus_on_the_stage(page)
    # A tap outside closes it too, and reaches nothing under it.
    page.mouse.click(x, y)
    expect(page.locator(".bd-chooser")).to_be_visible()
    page.mouse.click(x, y)  # on the board under the backdrop: the same spot again
    expect(page.locator(".bd-chooser")).to_have_count(0)
    expect(page.locator("#board .bd-target.is-selected")).to_have_count(0)
    # Choosing one acts as tapping that dart would: it is selected.
    page.mouse.click(x, y)
    page.locator(".bd-chooser button", has_text="Dart 1 on").click()
    expect(page.locator(".bd-chooser")).to_have_count(0)
    expect(page.locator('#board .bd-target.is-selected[data-target="dart 1"]')).to_have_count(1)
    expect(page.locator("#board-say")).to_contain_text("Choose where it goes")
    assert focus_on_the_stage(page)
    # The board's shortcuts still work from there: Escape cancels the selection.
    page.keyboard.press("Escape")
    expect(page.locator("#board .bd-target.is-selected")).to_have_count(0)
    # The keyboard works in the chooser: arrows move, Enter chooses.
    page.mouse.click(x, y)
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    expect(page.locator(".bd-chooser")).to_have_count(0)
    expect(page.locator("#board .bd-target.is-selected")).to_have_count(1)
    assert page.evaluate("document.activeElement !== document.body")
    assert csp_violations == []


def test_where_a_match_starts_a_tap_on_each_dart_selects_it_without_asking(page, live_server_url):
    """At 390x844 the ten darts where a match starts sit 20 to 26 px apart: a tap on
    each dart selects that dart at once (it lands on its body), and each movable dart
    is outlined in its own shape, under the darts, not ringed (rings round darts this
    close merged)."""
    open_decision(page, live_server_url, "roundabout-start")
    targets = page.evaluate("""() => [...document.querySelectorAll('#board .bd-target')].map(g => {
        const r = g.querySelector('.bd-hit').getBoundingClientRect();
        return [g.dataset.target, r.left + r.width / 2, r.top + r.height / 2]; })""")
    assert len(targets) == 10, targets
    assert _closest_pair(targets)[0] < 22  # ring 1's two darts
    shapes = page.evaluate("""() => [
        ...document.querySelectorAll('#board .bd-band, #board .bd-target .bd-edge')]
        .map(r => [r.tagName, r.getAttribute('href'), r.getAttribute('transform')])""")
    darts = page.evaluate("""() => Object.fromEntries(
        [...document.querySelectorAll('#board .ra-dart.red use')]
        .map(u => [u.getAttribute('transform'), u.getAttribute('href')]))""")
    assert len(shapes) == 20 and all(tag == "use" and darts.get(tr) == href for tag, href, tr in shapes), \
        (shapes, darts)
    # The bands lie under the darts: the first band comes before the first dart.
    assert page.evaluate("""() => !!(document.querySelector('#board .bd-band').compareDocumentPosition(
        document.querySelector('#board .ra-dart')) & Node.DOCUMENT_POSITION_FOLLOWING)""")
    for k, x, y in targets:
        page.mouse.click(x, y)
        expect(page.locator(f'#board .bd-target.is-selected[data-target="{k}"]')).to_have_count(1)
        expect(page.locator(".bd-chooser")).to_have_count(0)
        expect(page.locator("#board-say")).to_contain_text("Choose where it goes")
    # Off-centre, still on the dart (a third of the way to its neighbour on ring 1): the same.
    (k0, x0, y0), (k1, x1, y1) = targets[0], targets[1]
    assert (k0, k1) == ("dart 0", "dart 1")
    page.mouse.click(x0 + (x1 - x0) * .3, y0 + (y1 - y0) * .3)
    expect(page.locator(f'#board .bd-target.is-selected[data-target="{k0}"]')).to_have_count(1)
    expect(page.locator(".bd-chooser")).to_have_count(0)


def test_a_tap_squarely_on_an_isolated_dart_selects_it_and_close_spots_ask(page, live_server_url):
    # One dart of ours, alone on ring 1; a 1 and a 2 take it to the next two bars (20 px apart).
    state = roundabout_at({0: {0: (1, 2, "cw")}, 1: {0: (5, 6, "cw")}}, "d1-2")
    match = in_thread(make_match, "roundabout", ("human", "easy"), state=state)
    open_match(page, live_server_url, match)
    x, y = page.evaluate(CENTRE, '#board .bd-target[data-target="dart 0"] .bd-hit')
    page.mouse.click(x, y)
    expect(page.locator('#board .bd-target.is-selected[data-target="dart 0"]')).to_have_count(1)
    expect(page.locator(".bd-chooser")).to_have_count(0)
    # Between two of its destinations: asked, each spot marked, its die on its button.
    spots = page.evaluate("""() => [...document.querySelectorAll('#board .bd-dest')].map(g => {
        const r = g.querySelector('.bd-spot').getBoundingClientRect();
        return [g.dataset.dest, r.left + r.width / 2, r.top + r.height / 2]; })""")
    apart, a, b, x, y = _closest_pair(spots)
    assert apart < 44, (apart, spots)
    page.mouse.click(x, y)
    assert_chooser_fits(page, 2)
    expect(page.locator(f'#board .bd-dest.is-asked[data-dest="{a}"]')).to_have_count(1)
    expect(page.locator(f'#board .bd-dest.is-asked[data-dest="{b}"]')).to_have_count(1)
    dice = page.evaluate("[...document.querySelectorAll('.bd-chooser .bd-cue-die')].map(t => t.textContent)")
    assert sorted(dice) == ["1", "2"], dice
    expect(page.locator("#board-say")).not_to_contain_text("Step 1:")
    page.locator(".bd-chooser button").first.click()
    expect(page.locator(".bd-chooser")).to_have_count(0)
    expect(page.locator("#board-say")).to_contain_text("Step 1:")
    assert page.evaluate("document.activeElement !== document.body")


def test_a_tap_between_two_ludo_pieces_on_neighbouring_cells_asks_which_one(page, live_server_url):
    # Pieces 0 and 1 on cells 10 and 11 (24 px apart on a phone), a 6 rolled.
    state = ludo_state(2, phase="move", die=6, pieces=[[10, 11, -1, -1], [-1, -1, -1, 30]],
                       autoplay_forced=False)
    match = in_thread(make_match, seats=("human", "easy"), state=state)
    open_match(page, live_server_url, match)
    p0, p1 = '#board .bd-target[data-target="p0"] .bd-ring', '#board .bd-target[data-target="p1"] .bd-ring'
    x, y, apart = midpoint(page, p0, p1)
    assert apart < 44, apart
    page.mouse.click(x, y)
    assert_chooser_fits(page, 2)
    expect(page.locator(".bd-chooser")).to_contain_text("Move piece 0 forward")
    page.locator(".bd-chooser button", has_text="Move piece 1").click()
    expect(page.locator('#board .bd-target.is-selected[data-target="p1"]')).to_have_count(1)
    expect(page.locator("#board-say")).to_contain_text("Move piece 1 forward")
    # Squarely on piece 0, 24 px from piece 1: clearly piece 0.
    page.mouse.click(*page.evaluate(CENTRE, p0))
    expect(page.locator('#board .bd-target.is-selected[data-target="p0"]')).to_have_count(1)
    expect(page.locator(".bd-chooser")).to_have_count(0)


def _rondo_spaces(page):
    """The highlighted spaces' ids and screen centres."""
    return page.evaluate("""() => [...document.querySelectorAll('#board .rb-can')].map(g => {
        const r = g.querySelector('.rb-disc').getBoundingClientRect();
        return [g.dataset.space, r.left + r.width / 2, r.top + r.height / 2]; })""")


def _closest_pair(spaces):
    """(distance, id a, id b, midpoint x, y) of the two nearest spaces."""
    return min((((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5, a, b, (ax + bx) / 2, (ay + by) / 2)
               for i, (a, ax, ay) in enumerate(spaces) for b, bx, by in spaces[i + 1:])


def _rondo_chain_start():
    """Seat 0 to place, its rack fit for the chain S000-1 (purple), S000-2 (red), I00
    (green), after which I01 (red) and L000-1 (blue) are both open, 35 px apart on a
    390 px phone; the chain's first spaces, by the centre, are 45 px apart."""
    rules = get_rules("rondo")
    racks = [["purple", "red", "green", "red", "blue"], ["red", "blue"], ["green", "yellow"]]
    return rules.dump(rondo_position(rules, racks, turn=0, starter=0, scores=[10, 12, 9]))


def open_rondo_chooser(page, live_server_url):
    """Compose S000-1, S000-2, I00 (each a tap squarely on a space with no close
    neighbour: its tiles open at once), then tap between the two closest spaces open
    next. Returns (a, b, x, y): their ids and where the tap was."""
    match = in_thread(make_match, "rondo", ("human", "easy", "easy"), state=_rondo_chain_start())
    open_match(page, live_server_url, match)
    chooser = page.locator(".bd-chooser")
    assert _closest_pair(_rondo_spaces(page))[0] >= 44
    for space, colour in (("S000-1", "purple"), ("S000-2", "red"), ("I00", "green")):
        x, y = page.evaluate(CENTRE, f"#rs-{space} .rb-disc")
        page.mouse.click(x, y)
        expect(page.locator("#rondo-picker")).to_contain_text(f"On {colour} ")
        expect(chooser).to_have_count(0)
        page.locator("#rondo-picker").get_by_role("button", name=f"1 {colour} face up").click()
    expect(page.locator("#rondo-chain-list li")).to_have_count(3)
    # Next to I00: I01 (or I23) and L000-1 sit closer than 44 px.
    apart, a, b, x, y = _closest_pair(_rondo_spaces(page))
    assert apart < 44 and {a, b} & {"I01", "I23"} and "L000-1" in {a, b}, (apart, a, b)
    page.mouse.click(x, y)
    return a, b, x, y


def test_a_tap_between_two_close_rondo_spaces_asks_which_one(page, live_server_url, csp_violations):
    a, b, x, y = open_rondo_chooser(page, live_server_url)
    chooser = page.locator(".bd-chooser")
    expect(chooser).to_be_visible()
    assert_chooser_fits(page, 2)
    expect(chooser.locator("button", has_text=f"({a})")).to_have_count(1)
    expect(chooser.locator("button", has_text=f"({b})")).to_have_count(1)
    expect(page.locator(f"#rs-{a}.is-asked")).to_have_count(1)
    expect(page.locator(f"#rs-{b}.is-asked")).to_have_count(1)
    expect(page.locator("#rondo-picker button")).to_have_count(0)
    # Escape closes it and changes nothing.
    page.keyboard.press("Escape")
    expect(chooser).to_have_count(0)
    expect(page.locator("#board .is-asked")).to_have_count(0)
    expect(page.locator("#rondo-picker button")).to_have_count(0)
    expect(page.locator("#rondo-chain-list li")).to_have_count(3)
    assert focus_on_the_stage(page)
    # Choosing one opens that space's tiles.
    page.mouse.click(x, y)
    chooser.locator("button", has_text=f"({b})").click()
    expect(chooser).to_have_count(0)
    space = page.locator(f"#rs-{b}")
    expect(page.locator("#rondo-picker")).to_contain_text(
        f"On {space.get_attribute('data-colour')} {space.get_attribute('data-value')}, place:")
    expect(page.locator(f"#rs-{b}.rb-selected")).to_have_count(1)
    expect(page.locator("#rondo-picker button").first).to_be_focused()
    assert csp_violations == []
