"""Updates carry only what changed (games/frames/wire.py), in a real Chromium: a page
that applied a run of them, one that lost a frame (and so asked for a snapshot),
one whose socket dropped and reconnected, and one reloaded all show the same
board, dice, seats, status and move list as a page loaded fresh."""

import random

import pytest
from playwright.sync_api import expect

from games import actions
from games.engine import get_rules
from games.models import Match
from tests.e2e.test_live_play import in_thread, live, log_in
from tests.factories import make_match

# Every WebSocket the page opens, so a test can drop one (before the page's scripts run).
RECORD_SOCKETS = """
window.__sockets = [];
const Real = window.WebSocket;
window.WebSocket = function (url, protocols) {
  const s = protocols === undefined ? new Real(url) : new Real(url, protocols);
  window.__sockets.push(s);
  return s;
};
window.WebSocket.prototype = Real.prototype;
for (const k of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) window.WebSocket[k] = Real[k];
"""

# Loses the next public update before any script of the page sees it, and counts
# the snapshots that arrive afterwards.
DROP_NEXT_UPDATE = """() => {
  window.__dropped = 0;
  window.__snapshots = 0;
  window.addEventListener('htmx:wsAfterMessage', function (evt) {
    const text = evt.detail && evt.detail.message;
    if (typeof text === 'string' && text.includes('data-kind="snapshot"')) window.__snapshots += 1;
  });
  window.addEventListener('htmx:wsBeforeMessage', function drop(evt) {
    const text = evt.detail && evt.detail.message;
    // An update: its version tag alone has no data-kind.
    if (typeof text === 'string' && /id="frame-version" data-version="\\d+" hx-swap-oob/.test(text)) {
      window.removeEventListener('htmx:wsBeforeMessage', drop, true);
      window.__dropped += 1;
      evt.preventDefault();
      evt.stopImmediatePropagation();
    }
  }, true);
}"""

# What a player sees of the position, without what the page's scripts draw on
# it (board.js's highlights and marks, the clock's countdown) and without the
# move list's older lines (a fresh page lists the last 60; a live one keeps more).
SEEN = """() => {
  const out = {};
  for (const id of ['board', 'dice', 'seats', 'status']) {
    const el = document.getElementById(id).cloneNode(true);
    el.querySelectorAll('.bd-layer, .bd-under, .bd-chooser').forEach(n => n.remove());
    el.querySelectorAll('[hx-swap-oob]').forEach(n => n.removeAttribute('hx-swap-oob'));
    el.removeAttribute('hx-swap-oob');
    el.classList.remove('can-roll');
    el.querySelectorAll('.bd-moved, .is-used').forEach(n => n.classList.remove('bd-moved', 'is-used'));
    el.querySelectorAll('#clock').forEach(c => { c.textContent = ''; c.removeAttribute('data-server-now');
                                                 c.classList.remove('urgent'); });
    out[id] = el.outerHTML;
  }
  out.lines = Array.from(document.querySelectorAll('#move-list .move-line')).slice(-20)
    .map(l => l.getAttribute('data-ply') + ' ' + l.textContent.trim());
  return out;
}"""


def assert_same(seen: dict, fresh: dict) -> None:
    """Each part of ``seen`` is the fresh page's; a difference is shown line by line."""
    import difflib

    for key in fresh:
        if seen[key] != fresh[key]:
            a = seen[key] if isinstance(seen[key], list) else seen[key].replace("><", ">\n<").splitlines()
            b = fresh[key] if isinstance(fresh[key], list) else fresh[key].replace("><", ">\n<").splitlines()
            diff = "\n".join(difflib.unified_diff(a, b, "this page", "a fresh page", lineterm=""))
            raise AssertionError(f"#{key} differs from a fresh page's:\n{diff}")


def play_some(match, users, plies, rng):
    """``plies`` random legal moves, each by the seat to move (every seat is a person)."""
    rules = get_rules("ludo")
    for _ in range(plies):
        m = Match.objects.get(pk=match.pk)
        if m.status != Match.Status.ACTIVE:
            return
        state = rules.load(m.state)
        seat = rules.to_move(state)
        notation = str(rng.choice(rules.legal_moves(state)))
        in_thread(actions.play_move, m.public_id, users[seat], notation, m.version)


def caught_up(page, match):
    version = Match.objects.get(pk=match.pk).version
    expect(page.locator("#match")).to_have_attribute("data-version", str(version), timeout=15_000)


def fresh_view(browser, base, match, user=None):
    context = browser.new_context()
    if user is not None:
        log_in(context, user, base)
    page = context.new_page()
    page.goto(f"{base}/m/{match.public_id}/")
    live(page)
    caught_up(page, match)
    seen = page.evaluate(SEEN)
    context.close()
    return seen


def open_page(browser, base, match, user, csp):
    """The match page at 1280x800 for ``user`` (None: a spectator); its
    Content-Security-Policy reports go into ``csp``."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(RECORD_SOCKETS)
    if user is not None:
        log_in(context, user, base)
    page = context.new_page()
    page.on("console", lambda msg: csp.append(msg.text) if "Content Security Policy" in msg.text else None)
    page.goto(f"{base}/m/{match.public_id}/")
    live(page)
    return page


@pytest.fixture
def four_people(live_server_url):
    match = in_thread(make_match, seats=("human",) * 4)
    users = {s.index: s.user for s in match.seats.select_related("user")}
    return match, users


def test_updates_a_lost_frame_a_reconnect_and_a_reload_each_end_as_a_fresh_page(
        browser, live_server_url, four_people):
    match, users = four_people
    rng = random.Random(5)
    csp = []
    seat = open_page(browser, live_server_url, match, users[0], csp)
    watcher = open_page(browser, live_server_url, match, None, csp)

    # A run of updates, most of them deltas: both pages end as a fresh one.
    play_some(match, users, 30, rng)
    for page, user in ((seat, users[0]), (watcher, None)):
        caught_up(page, match)
        assert_same(page.evaluate(SEEN), fresh_view(browser, live_server_url, match, user))

    # A lost frame: the next update does not follow on, so the page asks for a snapshot.
    watcher.evaluate(DROP_NEXT_UPDATE)
    play_some(match, users, 6, rng)
    watcher.wait_for_function("window.__dropped === 1", timeout=15_000)  # frames may still be on the way
    caught_up(watcher, match)
    assert watcher.evaluate("window.__snapshots") == 1  # asked for once, not once per later update
    play_some(match, users, 6, rng)
    caught_up(watcher, match)
    assert_same(watcher.evaluate(SEEN), fresh_view(browser, live_server_url, match))

    # A dropped socket: moves made while it reconnects arrive in its snapshot.
    seat.evaluate("window.__sockets.filter(s => s.url.includes('/ws/match/')).at(-1).close()")
    play_some(match, users, 6, rng)
    live(seat)
    play_some(match, users, 4, rng)
    caught_up(seat, match)
    assert_same(seat.evaluate(SEEN), fresh_view(browser, live_server_url, match, users[0]))

    # A reload.
    watcher.reload()
    live(watcher)
    caught_up(watcher, match)
    assert_same(watcher.evaluate(SEEN), fresh_view(browser, live_server_url, match))
    assert csp == []
    for page in (seat, watcher):
        page.context.close()
