"""The match page's layout in a real Chromium (match.css "Layout"): at a
phone's 390x844 the board and every control of the current decision are on
the first screen, for every decision of every game (tests/e2e/positions.py),
with 150-character names and four seats; at 1280x800 the board is the stage
with the panel beside it."""

from playwright.sync_api import expect

from tests.e2e.positions import DECISIONS, ON_PAGE, make_decision
from tests.e2e.test_live_play import in_thread, live, log_in

# The decision's controls: what the seat acts with (not leaving or pausing).
DECISION_CONTROLS = ("#controls :is(button, summary, select):visible"
                     ":not(.leave-form *):not(.pause-form *)")


def boxes_off_screen(page, selector, height):
    """The controls matching ``selector`` that are not wholly inside the first
    ``height`` px of the page: [(text, top, bottom)]."""
    return page.evaluate(
        """([sel, h]) => [...document.querySelectorAll('#board')].concat(
               [...document.querySelectorAll('#controls button, #controls summary, #controls select')]
                 .filter(e => e.offsetParent !== null && !e.closest('.leave-form, .pause-form')
                              && !e.closest('details:not([open]) > :not(summary)')))
             .map(e => [e.textContent.trim().slice(0, 40), e.getBoundingClientRect().top + scrollY,
                        e.getBoundingClientRect().bottom + scrollY])
             .filter(([, top, bottom]) => top < 0 || bottom > h)""",
        [selector, height])


def status_cut(page):
    """What the status line cuts: [] when its words (after the name, which may
    end in an ellipsis beside the seat's colour) show whole, in at most two lines."""
    return page.evaluate(
        """() => { const t = document.querySelector('#status .turn');
                   if (!t) return [];
                   const lines = t.getClientRects().length ? Math.round(t.getBoundingClientRect().height /
                                 parseFloat(getComputedStyle(t).lineHeight)) : 0;
                   return (t.scrollWidth > t.clientWidth + 1 || lines > 2)
                     ? [['status line cut', t.textContent.trim().slice(-40), lines]] : []; }""")


def test_every_decision_fits_a_phone_screen_with_the_board(browser, live_server_url):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    misfits = {}
    for name in DECISIONS:
        match = in_thread(make_decision, name)
        context.clear_cookies()
        log_in(context, match.seats.get(index=0).user, live_server_url)
        page.goto(f"{live_server_url}/m/{match.public_id}/")
        live(page)
        expect(page.locator(DECISION_CONTROLS).first).to_be_visible()
        if name in ON_PAGE:
            ON_PAGE[name](page)
        assert page.evaluate("scrollY") == 0
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, f"{name}: wider than the phone"
        off = boxes_off_screen(page, DECISION_CONTROLS, 844)
        cut = status_cut(page)
        small = small_targets(page)
        if off or small or cut:
            misfits[name] = {"off the screen": off, "under 44 px": small, "status": cut}
    context.close()
    assert misfits == {}


def small_targets(page):
    """The decision's buttons smaller than 44x44 px: [(text, width, height)]."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#controls button')]
             .filter(e => e.offsetParent !== null && !e.closest('.leave-form, .pause-form'))
             .map(e => [e.textContent.trim().slice(0, 40), e.getBoundingClientRect().width,
                        e.getBoundingClientRect().height])
             .filter(([, w, h]) => w < 44 || h < 44)""")


def _desktop_decision(browser, live_server_url, name):
    """Seat 0's page of the decision ``name`` at 1280x800, live: (context, page)."""
    return decision_page(browser, live_server_url, name, {"width": 1280, "height": 800})


def decision_page(browser, live_server_url, name, viewport):
    """Seat 0's page of the decision ``name`` (tests/e2e/positions.py) in a new
    context of ``viewport``, live: (context, page)."""
    match = in_thread(make_decision, name)
    context = browser.new_context(viewport=viewport)
    log_in(context, match.seats.get(index=0).user, live_server_url)
    page = context.new_page()
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    return context, page


def test_on_a_desktop_the_board_is_the_stage_beside_the_panel(browser, live_server_url):
    context, page = _desktop_decision(browser, live_server_url, "ludo-choose")
    # One evaluation, so that a frame swapping the board in between cannot split it.
    board, panel, moves = page.evaluate(
        """() => ['#board svg', '.play-panel', '#move-list'].map(sel => {
                 const r = document.querySelector(sel).getBoundingClientRect();
                 return {x: r.x, y: r.y + scrollY, width: r.width, height: r.height};
               })""")
    assert board["height"] >= 600 and board["y"] + board["height"] <= 800
    assert panel["x"] >= board["x"] + board["width"], "the panel is beside the board"
    assert moves["y"] + moves["height"] <= 800, "the move list scrolls inside the panel"
    assert page.evaluate("document.documentElement.scrollHeight") <= 800 + 150  # the footer, at most
    context.close()


def test_on_a_desktop_the_status_names_a_computer_in_full(browser, live_server_url):
    """ "Computer 2 (Normal) to roll." on a line with room for it, not "Computer 2 (Nor…"."""
    from tests.factories import ludo_state, make_match

    match = in_thread(make_match, seats=("human", "normal"), state=ludo_state(2, phase="roll", turn=1),
                      computer_speed="slow")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    name = page.locator("#status .turn strong")
    expect(name).to_have_text("Computer 2 (Normal)")
    cut = name.evaluate("e => e.scrollWidth > e.clientWidth")
    assert not cut
    context.close()


def _finished_roundabout():
    from tests.factories import make_match

    match = make_match("roundabout", ("human", "human"))
    match.status, match.end_reason = "finished", "last_player_standing"
    match.save()
    return match


def test_on_a_phone_a_finished_match_says_its_result_across_the_panel(browser, live_server_url):
    """The result, the seed and the links each take the status's whole width
    (before, they were squeezed side by side into columns a word wide)."""
    match = in_thread(_finished_roundabout)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    log_in(context, match.seats.get(index=0).user, live_server_url)
    page = context.new_page()
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    expect(page.locator("#status .after-match")).to_be_visible()
    # One evaluation: the socket's first frame swaps #status in between two measurements.
    widths = page.evaluate(
        """() => ['', '.result', '.seed', '.after-match'].map(
               part => document.querySelector(('#status ' + part).trim()).getBoundingClientRect().width)""")
    status = widths[0]
    for part, width in zip((".result", ".seed", ".after-match"), widths[1:], strict=True):
        assert width > 0.6 * status, (part, width, status)
    context.close()


def test_on_a_desktop_one_tab_panel_shows_at_a_time(browser, live_server_url):
    """Choosing the Chat tab hides the move list (before, the Moves panel's
    desktop display rule beat its hidden attribute, so the moves stayed above
    the chat whatever tab was chosen)."""
    context, page = _desktop_decision(browser, live_server_url, "ludo-choose")
    for tab, shown in (("Chat", "#panel-chat"), ("Settings", "#panel-device"), ("Moves", "#panel-moves")):
        page.get_by_role("tab", name=tab).click()
        expect(page.locator(shown)).to_be_visible()
        visible = page.evaluate("""() => [...document.querySelectorAll('.play-tabs [role=tabpanel]')]
                                     .filter(p => p.getClientRects().length).map(p => p.id)""")
        assert visible == [shown[1:]], (tab, visible)
    context.close()


def test_on_a_phone_the_newest_move_shows_above_the_board(page, live_server_url, celery_worker):
    # The move list is in a tab below the fold: its newest line is repeated above
    # the board, which does not move down when it comes.
    from tests.factories import ludo_state, make_match

    state = ludo_state(2, pieces=[[10, 20, -1, -1], [-1, -1, -1, 30]], autoplay_forced=False)
    match = in_thread(make_match, seats=("human", "easy"), state=state, computer_speed="slow")
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page.context, match.seats.get(index=0).user, live_server_url)
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    top = page.evaluate("document.querySelector('#board').getBoundingClientRect().top")
    expect(page.locator("#last-move")).to_have_text("")
    page.locator('#controls form:has(input[name="move"][value="roll"]) button').click()
    expect(page.locator("#last-move")).to_contain_text("rolled", timeout=20_000)
    newest, shown, box, board = page.evaluate(
        """() => { const lines = document.querySelectorAll('#move-list .move-line');
                   const last = document.querySelector('#last-move');
                   return [lines[lines.length - 1].textContent.trim(), last.textContent.trim(),
                           last.getBoundingClientRect().toJSON(),
                           document.querySelector('#board').getBoundingClientRect().top]; }""")
    assert shown == newest
    assert box["bottom"] <= board and box["height"] > 0
    assert board == top
    # A tap on it opens the whole list (a tab below the fold).
    page.locator("#tab-chat").click()
    page.locator("#last-move").click()
    expect(page.locator("#tab-moves")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#move-list")).to_be_in_viewport()


# Layout shifts (Chromium's layout-shift entries, not caused by input) from the
# page's start, each with its moved nodes (id or class, y and height before and
# after); registered before any of the page's own scripts run.
RECORD_SHIFTS = """
window.__shifts = [];
new PerformanceObserver(list => {
  for (const e of list.getEntries()) if (!e.hadRecentInput)
    window.__shifts.push([e.value, e.sources.map(s => [
      s.node ? (s.node.id || String(s.node.className) || s.node.nodeName) : "?",
      Math.round(s.previousRect.y), Math.round(s.currentRect.y),
      Math.round(s.previousRect.height), Math.round(s.currentRect.height)])]);
}).observe({type: "layout-shift", buffered: true});
"""


def test_a_match_page_does_not_shift_on_a_phone_while_it_connects(browser, live_server_url):
    """Issue target: the match page's layout shift ≤ 0.05 on a phone, for each
    game, as a player and as a spectator, from the first paint until the
    page says Live (the connection status once wrapped onto a line of its
    own and pushed the board down 23 px, then back up)."""
    shifted = {}
    for name in ("ludo-roll", "roundabout-roll", "rondo-place"):
        match = in_thread(make_decision, name)
        for seat in (0, None):
            context = browser.new_context(viewport={"width": 390, "height": 844})
            context.add_init_script(RECORD_SHIFTS)
            if seat is not None:
                log_in(context, match.seats.get(index=seat).user, live_server_url)
            page = context.new_page()
            page.goto(f"{live_server_url}/m/{match.public_id}/")
            expect(page.locator("#match[data-synced]")).to_be_attached(timeout=20_000)
            live(page)
            shifts = page.evaluate("window.__shifts")
            total = sum(value for value, _sources in shifts)
            if total > 0.05:
                shifted[(name, "player" if seat is not None else "spectator")] = (round(total, 3), shifts)
            context.close()
    assert shifted == {}, "\n".join(f"{k}: {v}" for k, v in shifted.items())
