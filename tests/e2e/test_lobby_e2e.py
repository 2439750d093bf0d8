"""The play page, leaderboards, history and replays in a real Chromium (README "The play
page", "Times", "Replays"): a replay stepped and autoplayed in place, times in the
browser's zone, and the contrast of the new page parts."""

import re

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games import actions
from games.engine import get_rules
from games.models import Match, Move
from tests.e2e.lobby_site import QueueSocket, populate
from tests.e2e.test_contrast import violations_by_mode
from tests.e2e.test_live_play import in_thread, live, log_in
from tests.factories import ludo_state, make_match


def play_first_move(public_id):
    """The seat to move plays its first legal move (through the actions: pushed live)."""
    match = Match.objects.get(public_id=public_id)
    rules = get_rules(match.kind)
    state = rules.load(match.state)
    seat = match.seats.get(index=rules.to_move(state))
    actions.play_move(public_id, seat.user, str(rules.legal_moves(state)[0]), match.version)


@pytest.fixture
def site(live_server_url):
    return in_thread(populate)


def no_reload(page):
    """Mark the document; ``still_loaded(page)`` is True while no page load replaced it."""
    page.evaluate("window.__parlourSamePage = true")


def still_loaded(page) -> bool:
    return page.evaluate("window.__parlourSamePage === true")


def test_a_replay_steps_ten_plies_and_autoplays_in_place_with_the_url_following(
        page, live_server_url, site, csp_violations):
    match = site.finished
    total = Move.objects.filter(match=match).count()
    assert total > 20
    page.add_init_script("window.localStorage.setItem('parlour.dice_style', 'numbers')")
    page.goto(f"{live_server_url}/m/{match.public_id}/replay/")
    expect(page.locator("#replay-auto")).to_be_visible()
    expect(page.locator("body")).to_have_class(re.compile(r"\bdice-numbers\b"))  # the device's dice style
    no_reload(page)
    for ply in range(1, 11):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#replay-position")).to_have_text(f"Ply {ply} of {total}")
    expect(page).to_have_url(re.compile(r"\?ply=10$"))
    marked = int(page.locator("#replay-record a[aria-current]").get_attribute("data-ply"))
    assert 0 < marked <= 10 and page.locator("#replay-record a[aria-current]").count() == 1
    assert still_loaded(page)
    page.get_by_role("link", name="◀ Previous").click()
    expect(page.locator("#replay-position")).to_have_text(f"Ply 9 of {total}")
    assert still_loaded(page)
    page.go_back()
    expect(page).to_have_url(re.compile(r"\?ply=10$"))
    expect(page.locator("#replay-position")).to_have_text(f"Ply 10 of {total}")
    assert still_loaded(page)

    # Autoplay, fast, from eight plies before the end: the record follows and scrolls,
    # the board changes in place.
    near_end = page.locator("#replay-record a[data-ply]").nth(-6)
    near_end.scroll_into_view_if_needed()
    near_end.click()
    expect(page.locator("#replay-position")).to_have_text(
        f"Ply {near_end.get_attribute('data-ply')} of {total}")
    board_before = page.locator("#board").inner_html()
    page.locator("#replay-speed").select_option("400")
    page.get_by_role("button", name="▶ Play").click()
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#replay-position")).to_have_text(f"Ply {total} of {total}", timeout=15_000)
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "false")
    expect(page).to_have_url(re.compile(rf"\?ply={total}$"))
    assert page.locator("#board").inner_html() != board_before and still_loaded(page)
    record = page.locator("#replay-record")
    assert record.evaluate("r => r.scrollHeight <= r.clientHeight || r.scrollTop > 0")
    expect(page.locator("#seats")).to_contain_text("Place 1")
    assert csp_violations == []


def test_a_replay_without_javascript_steps_by_page_loads(browser, live_server_url, site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server_url}/m/{site.finished.public_id}/replay/?ply=3")
    expect(page.locator("#replay-auto")).to_be_hidden()
    page.get_by_role("link", name="Next ▶").click()
    expect(page).to_have_url(re.compile(r"\?ply=4$"))
    expect(page.locator("#replay-position")).to_contain_text("Ply 4 of")
    context.close()


def test_times_are_shown_in_the_browsers_zone_and_kept_on_the_profile(browser, live_server_url, site):
    context = browser.new_context(timezone_id="Europe/Paris")
    log_in(context, site.me, live_server_url)
    page = context.new_page()
    page.goto(f"{live_server_url}/u/{site.me.username}/matches/")
    first = page.locator("table.history time").first
    stamp = first.get_attribute("datetime")
    local = page.evaluate("""s => new Intl.DateTimeFormat('en-GB', {timeZone: 'Europe/Paris',
        day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit',
        hourCycle: 'h23'}).format(new Date(s))""", stamp)
    expect(first).to_have_text(local)  # converted by the browser on the first page
    expect(first).to_have_attribute("title", "Europe/Paris")
    for _ in range(50):
        if User.objects.get(pk=site.me.pk).time_zone:
            break
        page.wait_for_timeout(100)
    assert User.objects.get(pk=site.me.pk).time_zone == "Europe/Paris"
    page.reload()
    expect(page.locator(".times-note")).to_have_text("Times are in your time zone, Europe/Paris.")
    context.close()


def test_joining_from_a_card_waits_in_place_and_a_suspension_replaces_the_waiting_time(
        page, live_server_url, site, csp_violations):
    from datetime import timedelta

    from django.utils import timezone

    from moderation import actions as moderation

    log_in(page.context, site.me, live_server_url)
    page.goto(f"{live_server_url}/play/")
    ranked = page.locator("#game-rondo .queue-join")
    expect(ranked.get_by_role("button", name="Ranked Rondo, 3 players")).to_contain_text("1 waiting")
    no_reload(page)
    queue = QueueSocket(page)
    ranked.get_by_role("button", name="Ranked Rondo, 2 players").click()
    queue.first_frame()  # the snapshot: the socket is in the player's groups (ci37: it came before a wait)
    expect(page.locator("#queue-count")).to_contain_text("1 player waiting")
    assert still_loaded(page) and page.url.endswith("/play/")
    in_thread(moderation.ban_user, None, site.me, timezone.now() + timedelta(days=3), "Abuse in chat.")
    expect(page.locator("#queue")).to_contain_text("This account is suspended until", timeout=20_000)
    expect(page.locator("#queue")).to_contain_text("Reason: Abuse in chat.")
    expect(page.locator("#queue-status")).to_have_count(0)
    assert csp_violations == []


def test_history_filters_and_pages_through_htmx_and_without_javascript(browser, live_server_url, site):
    in_thread(lambda: [make_match(seats=("human", "easy"), users=[site.me], state=ludo_state())
                       for _ in range(24)])
    for js in (True, False):
        context = browser.new_context(java_script_enabled=js)
        page = context.new_page()
        page.goto(f"{live_server_url}/u/{site.me.username}/matches/")
        if js:
            no_reload(page)
        expect(page.locator("tr[data-match]")).to_have_count(25)
        page.get_by_role("link", name="Older →").click()
        expect(page).to_have_url(re.compile(r"before=\d+"))
        expect(page.locator("tr[data-match]")).to_have_count(4)  # 29 in all
        page.get_by_label("Type").select_option("rated")
        if not js:
            page.get_by_role("button", name="Filter").click()
        expect(page).to_have_url(re.compile(r"rated=rated"))
        expect(page.locator("tr[data-match]")).to_have_count(5)  # the rated ones, one voided
        expect(page.locator("tr[data-match] .tag.voided")).to_have_count(1)
        if js:
            assert still_loaded(page)
            page.go_back()
            expect(page.locator("tr[data-match]")).to_have_count(4)
        context.close()


def test_boosted_tabs_stay_on_the_page_and_match_pages_are_never_boosted(page, live_server_url, site):
    log_in(page.context, site.me, live_server_url)
    page.goto(f"{live_server_url}/leaderboard/ludo/")
    no_reload(page)
    page.get_by_role("link", name="Rondo").click()
    expect(page.locator("h1")).to_have_text("Rondo leaderboard")
    expect(page).to_have_url(re.compile(r"/leaderboard/rondo/$"))
    assert still_loaded(page)
    page.goto(f"{live_server_url}/u/{site.me.username}/")
    no_reload(page)
    page.get_by_role("link", name=f"All matches of {site.me.username}").click()
    expect(page.locator("form.history-filter")).to_be_visible()  # the whole page, not the results alone
    expect(page.locator("tr[data-match]")).to_have_count(5)
    assert still_loaded(page)

    # From one match page to another (its page, then the play page's link to a live
    # match): full page loads, and the second board is live and takes the next move.
    page.goto(f"{live_server_url}/m/{site.finished.public_id}/")
    assert page.locator("[hx-boost]").count() == 0
    no_reload(page)
    page.locator(".site-header").get_by_role("link", name="Play").first.click()
    live_link = page.locator(f'#live a[href="/m/{site.live.public_id}/"]')
    assert live_link.evaluate("a => a.closest('[hx-boost]') === null")
    live_link.click()
    expect(page).to_have_url(re.compile(rf"/m/{site.live.public_id}/$"))
    assert not still_loaded(page)
    live(page)
    assert page.locator("[hx-boost]").count() == 0
    version = int(page.locator("#match").get_attribute("data-version"))
    in_thread(play_first_move, site.live.public_id)
    expect(page.locator("#match")).to_have_attribute("data-version", str(version + 1), timeout=20_000)


def test_the_play_page_leaderboard_history_and_replay_pass_axe_contrast(page, live_server_url, site,
                                                                         axe_source):
    log_in(page.context, site.me, live_server_url)
    for path in ("/play/", "/leaderboard/ludo/", f"/u/{site.me.username}/matches/",
                 f"/u/{site.me.username}/", f"/m/{site.finished.public_id}/replay/?ply=12"):
        page.goto(f"{live_server_url}{path}")
        assert violations_by_mode(page, axe_source) == {}, path
