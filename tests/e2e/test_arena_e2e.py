"""An arena from open to podium in real Chromium browsers, against daphne, a
real Celery worker and Celery beat (the arena wave): three players join on
the arena page, two are paired and sent to their match, the standings move
live on the third one's page as it ends, the arena closes while a match is
still being played (the podium reads provisional), and the podium is final
once it ends (README "Arenas")."""

import os
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from arenas.models import Arena, ArenaPlayer
from games import actions
from games.models import Match
from tests.e2e.test_live_play import in_thread, log_in
from tests.factories import make_user


def arena_page(browser, base, user, arena):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    log_in(ctx, user, base)
    page = ctx.new_page()
    page.goto(f"{base}/arenas/{arena.pk}/")
    return page


def shot(page, name):
    """PARLOUR_SHOTS=<folder>: keep a screenshot of ``page`` there (to look at)."""
    if os.environ.get("PARLOUR_SHOTS"):
        page.screenshot(path=os.path.join(os.environ["PARLOUR_SHOTS"], f"{name}.png"), full_page=True)


def live_match_of(user) -> Match | None:
    return Match.objects.filter(seats__user=user, arena_match__isnull=False,
                                status=Match.Status.ACTIVE).first()


@pytest.mark.timeout(240)
def test_three_players_join_play_see_the_standings_move_and_see_the_podium(
        browser, live_server_url, celery_worker, celery_beat):
    ann, bob, cat = (in_thread(make_user, n) for n in ("arena_ann", "arena_bob", "arena_cat"))
    # Running now; the test brings its end forward once the last match has begun.
    arena = in_thread(Arena.objects.create, name="Ludo sprint", kind="ludo", seats=2, turn_seconds=60,
                      minutes=30, starts_at=timezone.now() - timedelta(minutes=1),
                      rated=True, rated_from_players=3)
    pages = {u.username: arena_page(browser, live_server_url, u, arena) for u in (ann, bob, cat)}
    # Someone watching, signed out, on a phone.
    viewer = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    viewer.goto(f"{live_server_url}/arenas/{arena.pk}/")
    expect(pages["arena_ann"].locator(".arena-phase")).to_contain_text("Running")
    for name, page in pages.items():
        page.get_by_role("button", name="Join this arena").click()
        # Their row reaches the viewer (their own page may already be on its way to a match).
        expect(viewer.locator("#arena-rows tr", has_text=name)).to_have_count(1)
    # Two of them are paired by the worker and their arena pages go to the match.
    for _ in range(600):
        playing = [u for u in (ann, bob, cat) if live_match_of(u)]
        if len(playing) == 2:
            break
        pages["arena_ann"].wait_for_timeout(100)
    assert len(playing) == 2, "nobody was paired"
    waiting = next(u for u in (ann, bob, cat) if u not in playing)
    first = live_match_of(playing[0])
    for u in playing:
        pages[u.username].wait_for_url(f"**/m/{first.public_id}/", timeout=15_000)
    watcher = pages[waiting.username]
    expect(viewer.locator("#arena-rows td.now a")).to_have_count(2)
    expect(viewer.locator("#arena-rows tr")).to_have_count(3)

    # The second player leaves: the first wins 2 points, shown live to the viewer.
    winner, loser = playing
    in_thread(actions.leave_match, first.public_id, loser)
    row = viewer.locator("#arena-rows tr", has_text=winner.username)
    expect(row.locator("td.points")).to_have_text("2")
    expect(viewer.locator("#arena-rows tr").first).to_contain_text(winner.username)
    expect(viewer.locator("#arena-rows tr").first.locator("td.rank")).to_have_text("1")
    expect(viewer.locator("#arena-rows tr", has_text=loser.username)).to_contain_text("paused")
    shot(viewer, "arena-running-phone")
    shot(pages[loser.username], "arena-paused-desktop")

    # The winner and the one who waited are paired next (the loser is paused).
    for _ in range(600):
        second = live_match_of(waiting)
        if second:
            break
        watcher.wait_for_timeout(100)
    assert second is not None and {s.user_id for s in second.seats.all()} == {winner.pk, waiting.pk}
    watcher.wait_for_url(f"**/m/{second.public_id}/", timeout=15_000)

    # The arena closes (the wave, within 2 s of its end) while that match is
    # played: the podium is provisional.
    in_thread(lambda: Arena.objects.filter(pk=arena.pk).update(
        starts_at=timezone.now() - timedelta(minutes=30)))
    expect(viewer.locator(".arena-phase")).to_contain_text("Closed", timeout=60_000)
    expect(viewer.locator(".arena-header")).to_contain_text("provisional")
    in_thread(actions.leave_match, second.public_id, winner)  # the one who waited wins it
    expect(viewer.locator(".arena-phase")).to_contain_text("Finished", timeout=20_000)
    podium = viewer.locator(".arena-podium li")
    expect(podium).to_have_count(2)
    expect(podium.first).to_contain_text(winner.username)  # 2 points, reached first
    expect(podium.nth(1)).to_contain_text(waiting.username)
    assert ArenaPlayer.objects.get(arena=arena, user=waiting).points == 2
    expect(viewer.locator("#arena-rows tr").nth(1).locator("td.rank")).to_have_text("2")
    shot(viewer, "arena-finished-phone")
    desk = pages[loser.username]
    desk.goto(f"{live_server_url}/arenas/{arena.pk}/")
    shot(desk, "arena-finished-desktop")
    desk.goto(f"{live_server_url}/arenas/")
    shot(desk, "arenas-desktop")

