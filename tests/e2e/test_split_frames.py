"""A move's answer in two WebSocket messages (wire.pack splits the public
frame and the seat's controls when together they would pass MESSAGE_BYTES):
the public frame alone is not the answer. Until the seat's controls come (or an
error), the composer stays "sent", so a second click cannot send the same move
again against a version the server has left behind (found by the whole-match
browser test: Rondo's chain went twice and the second was refused as stale).

The real server answers; the test routes the socket through Playwright, cuts
each packed answer in two at the seat's controls and holds the second part."""

import re
import threading

from playwright.sync_api import expect

from tests.e2e.test_board_play import open_match
from tests.e2e.test_live_play import in_thread
from tests.e2e.test_rondo_live import near_the_end as rondo_near_the_end
from tests.factories import ludo_state, make_match

CONTROLS = '<div id="controls"'
#: The other seats are people who never connect, with this long a turn: nothing
#: moves after the tested seat's move while the test looks (a computer seat
#: moved 2.5 s after it and, on a loaded CI machine, before the test had looked).
OPPONENT_WAITS = 120  # the longest live turn (games.time_controls.LIVE_SECONDS)


def tap(page, selector):
    """A click at the centre of the first ``selector`` on the board: by its place,
    as a finger would, so a frame redrawing the layer in between cannot lose it."""
    expect(page.locator(selector).first).to_be_visible()
    x, y = page.evaluate("""(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                                      return [r.x + r.width / 2, r.y + r.height / 2]; }""", selector)
    page.mouse.click(x, y)


class Splitter:
    """Routes the match socket: server messages holding the public frame and the
    seat's controls go to the page as two, the controls held until ``release()``;
    ``sent`` counts the page's move messages."""

    def __init__(self, page):
        self.held = []
        self.sent = []
        self.hold = False
        self.stale_first = False  # send the page's first move with version 0
        self.lock = threading.Lock()
        page.route_web_socket(re.compile(r".*/ws/match/.*"), self._route)

    def _route(self, ws):
        server = ws.connect_to_server()
        self.ws = ws

        def to_server(message):
            if isinstance(message, str) and '"move' in message:
                self.sent.append(message)
                if self.stale_first and len(self.sent) == 1:  # the server refuses it, for real
                    message = re.sub(r'"version": ?"?\d+"?', '"version": 0', message)
            server.send(message)

        def to_page(message):
            if self.hold and isinstance(message, str) and CONTROLS in message and message.index(CONTROLS) > 0:
                at = message.index(CONTROLS)
                with self.lock:  # held before the public part goes: once the page shows it, held is set
                    self.held.append(message[at:])
                ws.send(message[:at])
                return
            ws.send(message)

        ws.on_message(to_server)
        server.on_message(to_page)

    def release(self):
        self.hold = False
        with self.lock:
            held, self.held = self.held, []
        for message in held:
            self.ws.send(message)


def test_a_ludo_move_is_not_sent_twice_while_its_controls_are_on_the_way(page, live_server_url,
                                                                          celery_worker):
    state = ludo_state(2, phase="move", die=5, pieces=[[10, 20, -1, -1], [-1, -1, -1, 30]],
                       autoplay_forced=False)
    match = in_thread(make_match, seats=("human", "human"), state=state, turn_seconds=OPPONENT_WAITS)
    split = Splitter(page)
    open_match(page, live_server_url, match)
    split.hold = True
    tap(page, "#board .bd-target")
    expect(page.locator("#board .bd-dest")).to_have_count(1)
    tap(page, "#board .bd-dest")
    expect(page.locator("#board .lm")).to_have_count(1, timeout=20_000)  # the public frame came
    assert split.held, "the answer was not split"
    expect(page.locator("#board .bd-layer.is-busy")).to_have_count(1)  # still sent, not open again
    # Nor may a labelled button send another move of the same version.
    expect(page.locator("#controls form[ws-send] button")).to_have_count(2)
    expect(page.locator("#controls form[ws-send] button:enabled")).to_have_count(0)
    assert len(split.sent) == 1, split.sent
    split.release()
    expect(page.locator("#board .bd-layer.is-busy")).to_have_count(0, timeout=20_000)  # the new controls came
    assert len(split.sent) == 1, split.sent


def test_a_rondo_chain_is_not_sent_twice_while_its_controls_are_on_the_way(page, live_server_url,
                                                                           celery_worker):
    state, board, start, colour = rondo_near_the_end()
    match = in_thread(make_match, "rondo", seats=("human", "human", "human"), state=state,
                      turn_seconds=OPPONENT_WAITS)
    split = Splitter(page)
    open_match(page, live_server_url, match)
    split.hold = True
    page.locator(f"#rs-{board.ids[start]}").click()
    page.locator("#rondo-picker button").first.click()
    page.locator("#rondo-send").click()
    expect(page.locator("#board .lm")).to_have_count(1, timeout=20_000)
    assert split.held, "the answer was not split"
    expect(page.locator("#rondo-send")).to_be_disabled()
    expect(page.locator("#rondo-draw-button")).to_be_disabled()  # nor may a draw go after it
    page.locator("#rondo-send").click(force=True)
    split.release()
    expect(page.locator("#controls[data-my-turn]")).to_have_count(0, timeout=20_000)
    assert len(split.sent) == 1, split.sent


def test_a_roll_is_not_sent_twice_while_its_controls_are_on_the_way(page, live_server_url, celery_worker):
    # The labelled Roll form and the dice: locked from the send until the seat's
    # own answer, not unlocked by the public frame that comes first.
    state = ludo_state(2, phase="roll", pieces=[[10, 20, -1, -1], [-1, -1, -1, 30]], autoplay_forced=False)
    match = in_thread(make_match, seats=("human", "human"), state=state, turn_seconds=OPPONENT_WAITS)
    split = Splitter(page)
    open_match(page, live_server_url, match)  # returns once the socket's snapshot has come
    split.hold = True
    roll = page.locator('#controls form:has(input[name="move"][value="roll"]) button')
    roll.click()
    # The public frame:
    expect(page.locator("#dice:not(:has(> .is-old)) .die")).to_have_count(1, timeout=20_000)
    assert split.held, "the answer was not split"
    expect(roll).to_be_disabled()
    page.locator("#dice").click(force=True)
    roll.click(force=True)
    split.release()
    expect(page.locator('#controls input[name="move"][value="roll"]')).to_have_count(0, timeout=20_000)
    assert len(split.sent) == 1, split.sent


def test_a_rondo_chain_sent_again_after_a_refusal_stays_sent_past_the_first_sends_timer(page, live_server_url,
                                                                                       celery_worker):
    """A send that gets no answer opens its composer again after 10 s. That timer
    is the send's own: the first send's timer, due while a second send's answer
    is on the way, must not open the composer (CI: a Rondo chain went twice, the
    second refused as out of date). The page's clock is Playwright's, run on by hand."""
    state, board, start, colour = rondo_near_the_end()
    match = in_thread(make_match, "rondo", seats=("human", "human", "human"), state=state,
                      turn_seconds=OPPONENT_WAITS)
    page.clock.install()
    split = Splitter(page)
    split.stale_first = True
    open_match(page, live_server_url, match)
    page.locator(f"#rs-{board.ids[start]}").click()
    page.locator("#rondo-picker button").first.click()
    page.locator("#rondo-send").click()
    expect(page.locator("#match-error")).to_contain_text("out of date")  # the first send, refused
    if page.locator("#rondo-send").is_disabled():  # the chain was taken back: compose it again
        page.locator(f"#rs-{board.ids[start]}").click()
        page.locator("#rondo-picker button").first.click()
    page.clock.run_for(4_000)
    split.hold = True
    page.locator("#rondo-send").click()
    expect(page.locator("#board .lm")).to_have_count(1, timeout=20_000)  # the public frame came
    expect(page.locator("#rondo-send")).to_be_disabled()
    page.clock.run_for(7_000)  # 11 s after the first send: its timer is due
    expect(page.locator("#rondo-send")).to_be_disabled()
    assert len(split.sent) == 2, split.sent
    split.release()
    expect(page.locator("#controls[data-my-turn]")).to_have_count(0, timeout=20_000)
    assert len(split.sent) == 2, split.sent
