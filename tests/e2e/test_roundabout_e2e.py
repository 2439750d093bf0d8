"""A solo Roundabout match in a real Chromium against daphne, Redis and a
Celery worker, played to its result from a position near the end."""

import re

from playwright.sync_api import expect

from games.engine import get_rules
from games.engine.fair import draw
from games.models import Match, Move
from tests.engine.roundabout_helpers import position
from tests.factories import SEED, make_match

from .test_live_play import in_thread, live, log_in

RA = get_rules("roundabout")


def _match_id(k: int) -> str:
    """A match id whose two dice at chance step ``k`` hold a 2, 3, 4 or 5:
    enough to bring a dart on ring 3, bar 14 (facing clockwise) home."""
    for n in range(100):
        public_id = f"round{n:03d}"
        i = draw(SEED, public_id, k, [1] * 36)
        if {i // 6 + 1, i % 6 + 1} & {2, 3, 4, 5}:
            return public_id
    raise AssertionError("no suitable id")


def test_one_person_plays_a_computer_to_the_result(page, live_server_url, celery_worker, csp_violations):
    # Red (the human) has one dart left, its circuit made, two to five spaces from home;
    # yellow (a fast computer) rolls first, with one dart far away on ring 5.
    darts = {0: {0: (3, 14, "cw")}, 1: {0: (5, 6, "cw")}}
    start = position(2, darts, turn=1, circuit={(0, 0)}, chance_count=1)
    match = in_thread(make_match, "roundabout", ("human", "easy"), state=RA.dump(start),
                      computer_speed="fast", public_id=_match_id(2))  # fmt: skip
    user = match.seats.get(index=0).user
    log_in(page.context, user, live_server_url)
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    # The board's accessible name: its title, then each seat's darts in words.
    expect(page.locator("#board svg")).to_have_accessible_name(re.compile(r"\bdart 0 on ring 3, bar 14\b"))
    status = page.locator("#status")
    # The computer moves first; then it is our turn: roll with the keyboard.
    roll = page.get_by_role("button", name="Roll the dice")
    roll.wait_for(timeout=20_000)
    roll.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#dice")).to_contain_text("Dice:", timeout=20_000)
    home = page.locator("#controls button", has_text="home and off the board").first
    home.wait_for(timeout=20_000)
    expect(page.locator("#controls summary").first).to_contain_text("Dart 0")
    home.click()
    expect(status).to_contain_text("Match over.", timeout=20_000)
    m = Match.objects.get(pk=match.pk)
    assert m.status == "finished" and m.end_reason == "finished"
    assert dict(m.seats.values_list("index", "rank")) == {0: 1, 1: 2}
    assert Move.objects.filter(match=m, actor="seat", seat=1).exists(), "the computer played"
    expect(page.locator("#move-list")).to_contain_text("moved dart 0")
    expect(status).to_contain_text(m.seed)
    assert csp_violations == []


def test_reversing_doubles_turn_a_dart_on_the_board(page, live_server_url, celery_worker):
    """At 390x844: on 3-3 the player picks a dart, then its own spot (marked ↺):
    the preview shows it turned; Confirm sends the reversal and the pass as one turn."""
    from tests.e2e.positions import RA_DARTS_2, _roundabout_rolled
    from tests.e2e.test_board_play import shot

    match = in_thread(make_match, "roundabout", ("human", "easy"),
                      state=_roundabout_rolled(2, RA_DARTS_2, (3, 3)), computer_speed="fast")
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page.context, match.seats.get(index=0).user, live_server_url)
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    expect(page.locator(".board-help")).to_contain_text("marked ↺")
    page.locator('#board .bd-target[data-target="dart 0"]').click(force=True)
    turn = page.locator("#board .bd-dest", has_text="↺")
    expect(turn).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollTop") == 0
    shot(page, "roundabout-390-reversal-spot")
    turn.click(force=True)
    expect(page.locator("#board-say")).to_contain_text("Step 1: Turn dart 0")
    expect(page.locator("#board-say")).to_contain_text("turn another dart")
    expect(page.locator("#board .bd-ghost.is-composed")).to_have_count(1)
    shot(page, "roundabout-390-reversal-composed")
    page.locator("#board-confirm").click()
    expect(page.locator("#board .lm")).to_have_count(1, timeout=20_000)
    rows = list(Move.objects.filter(match=match, actor="seat", seat=0)
                .values_list("notation", "version_after"))
    assert [n for n, _ in rows] == ["rev 0", "pass"] and rows[0][1] == rows[1][1], rows
