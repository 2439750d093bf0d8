"""The pages' scripts are native ES modules (static/js/, README "Where things live"):
each game's match page loads its whole module graph and runs it without an error or a
failed request, within the Content-Security-Policy."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.positions import make_decision
from tests.e2e.test_board_play import open_match
from tests.e2e.test_live_play import in_thread


@pytest.mark.parametrize("position", ["ludo-choose", "roundabout-darts", "rondo-place"])
def test_each_games_match_page_runs_its_modules_without_an_error(page, live_server_url, csp_violations,
                                                                 position):
    errors = []
    failed = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("requestfailed", lambda req: failed.append(req.url) if "/static/" in req.url else None)
    page.on("response", lambda resp: failed.append(resp.url) if "/static/" in resp.url and resp.status >= 400
            else None)
    match = in_thread(make_decision, position)
    open_match(page, live_server_url, match)
    # Each part did its work: the board's keys (board/keys.js) listed in the game's words,
    # the clock counted (match/clock.js), the socket live (socket.js's policy, match.js).
    expect(page.locator("#board-keys dd").first).not_to_be_empty()
    expect(page.locator("#clock")).to_have_text(re.compile(r"^\d\d:\d\d$"))
    expect(page.locator("#connection-status")).to_have_text("Live")
    assert errors == [] and failed == [] and csp_violations == []
