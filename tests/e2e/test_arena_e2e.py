"""An arena from open to podium in real Chromium browsers, against daphne, a
real Celery worker and Celery beat (the arena wave): three players join on
the arena page, two are paired and sent to their match, the standings move
live on the third one's page as it ends, the arena closes while a match is
still being played (the podium reads provisional), and the podium is final
once it ends (README "Arenas"); and an arena of 150 players, whose page
shows the first 100 places and the viewer's own row, keeps them right as
rows move, follows the viewer's entry and the end without a reload, and
links its second page."""

import os
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from arenas.models import Arena, ArenaPlayer
from games import actions
from games.models import Match
from tests.e2e.test_live_play import in_thread, log_in
from tests.factories import every_seat_moves, make_user


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
    in_thread(every_seat_moves, first)
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
    # The winner's page was their finished arena match: it follows them to the next one.
    pages[winner.username].wait_for_url(f"**/m/{second.public_id}/", timeout=15_000)

    # The arena closes (the wave, within 2 s of its end) while that match is
    # played: the podium is provisional.
    in_thread(lambda: Arena.objects.filter(pk=arena.pk).update(
        starts_at=timezone.now() - timedelta(minutes=30)))
    expect(viewer.locator(".arena-phase")).to_contain_text("Closed", timeout=60_000)
    expect(viewer.locator(".arena-header")).to_contain_text("provisional")
    in_thread(every_seat_moves, second)
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



def crowd(n: int) -> tuple[Arena, list]:
    """A running arena of ``n`` players named big001.. in rank order (big001 first)."""
    from accounts.models import User

    arena = Arena.objects.create(name="Ludo crowd", kind="ludo", seats=2, turn_seconds=60, minutes=30,
                                 starts_at=timezone.now() - timedelta(minutes=1), rated=False)
    users = User.objects.bulk_create(User(username=f"big{i:03d}", email=f"big{i}@example.com", password="!")
                                     for i in range(1, n + 1))
    now = timezone.now()
    ArenaPlayer.objects.bulk_create(
        ArenaPlayer(arena=arena, user=u, joined_at=now, rating=1500 + i, points=2 * (n + 1 - i),
                    wins=n + 1 - i, reached_at=now, sequence=" ".join(["2"] * min(6, n + 1 - i)))
        for i, u in enumerate(users, 1))
    return arena, users


@pytest.mark.timeout(120)
def test_a_large_arena_shows_the_first_hundred_and_the_own_row_and_stays_right_live(browser, live_server_url):
    from arenas import actions as arena_actions
    from arenas import push

    arena, users = in_thread(crowd, 150)
    me, last = users[139], users[149]
    desk = arena_page(browser, live_server_url, me, arena)  # 140th
    phone_ctx = browser.new_context(viewport={"width": 390, "height": 844})
    log_in(phone_ctx, users[119], live_server_url)  # 120th
    phone = phone_ctx.new_page()
    phone.goto(f"{live_server_url}/arenas/{arena.pk}/")
    rows, own = desk.locator("#arena-rows tr[data-token]"), desk.locator("#arena-rows tr.is-me")
    expect(rows).to_have_count(101)
    expect(own.locator("td.rank")).to_have_text("140")
    expect(desk.locator("#arena-rows tr.arena-gap")).to_have_count(1)
    expect(desk.locator("#arena-foot")).to_contain_text("… and 50 more players.")
    expect(desk.locator("#arena-foot nav a")).to_have_text(["2"])
    expect(phone.locator("#arena-rows tr.is-me td.rank")).to_have_text("120")
    shot(desk, "arena-large-desktop")
    shot(phone, "arena-large-phone")

    # The last player jumps to the top: in at place 1, the hundredth drops
    # out, and the own row below (not pushed) is sent again one place lower.
    def jump():
        entry = ArenaPlayer.objects.get(arena=arena, user=last)
        ArenaPlayer.objects.filter(pk=entry.pk).update(points=1000, wins=500)
        push.standings_rows(arena.pk, [entry.pk])
    in_thread(jump)
    expect(rows.first).to_contain_text("big150")
    expect(rows.first.locator("td.rank")).to_have_text("1")
    expect(rows).to_have_count(101)
    expect(rows.nth(99)).to_contain_text("big099")
    expect(rows.nth(99).locator("td.rank")).to_have_text("100")
    expect(own.locator("td.rank")).to_have_text("141", timeout=20_000)
    expect(phone.locator("#arena-rows tr.is-me td.rank")).to_have_text("121", timeout=20_000)

    # The leader is disqualified: listed last, out of the first hundred; the
    # table keeps the places it knows (99), ranked truly, and the own row moves up.
    first = in_thread(lambda: ArenaPlayer.objects.get(arena=arena, user=users[0]).pk)
    in_thread(arena_actions.disqualify, first)
    expect(desk.locator("#arena-rows tr", has_text="big001")).to_have_count(0)
    expect(rows).to_have_count(100)
    expect(rows.first).to_contain_text("big150")
    expect(rows.nth(98).locator("td.rank")).to_have_text("99")
    expect(own.locator("td.rank")).to_have_text("140", timeout=20_000)

    # The viewer's own block follows their entry, and the arena's end, unreloaded.
    in_thread(arena_actions.pause, me, arena.pk)
    expect(desk.get_by_role("button", name="Resume")).to_be_visible()
    expect(own).to_contain_text("paused")
    ended = timezone.now() - timedelta(minutes=40)
    in_thread(lambda: Arena.objects.filter(pk=arena.pk).update(starts_at=ended))
    in_thread(arena_actions.close_due)
    expect(desk.locator(".arena-phase")).to_contain_text("Finished")
    expect(desk.locator(".arena-me button")).to_have_count(0)
    expect(desk.locator(".arena-me")).to_contain_text("You scored 22 points.")
    expect(phone.locator(".arena-me button")).to_have_count(0)
    shot(desk, "arena-large-finished-desktop")

    # The rest is reachable by plain links: the second page, as loaded.
    desk.locator("#arena-foot nav").get_by_role("link", name="2", exact=True).click()
    desk.wait_for_url("**/?page=2")
    later = desk.locator("#arena-rows tr[data-token]")
    expect(later).to_have_count(50)
    expect(later.first.locator("td.rank")).to_have_text("101")
    expect(later.last).to_contain_text("big001")
    expect(later.last.locator("td.rank")).to_have_text("–")
    shot(desk, "arena-large-page2-desktop")
    phone_ctx.close()
