"""Live Ludo in a real Chromium against daphne, Redis and a Celery worker."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.db import connections
from django.test import Client
from playwright.sync_api import expect

from games.models import Match, Move
from tests.factories import ludo_state, make_match


def in_thread(fn, *args, **kwargs):
    """Run Django code that sends pushes (async_to_sync) away from Playwright's
    event loop, which lives in this thread. The thread closes its database
    connections before it ends: under a connection pool (DATABASE_POOL=1, CI's
    PostgreSQL pass) a connection left open by a finished thread is never given
    back, and after DATABASE_POOL_MAX of them every later query in the test
    process waited out the pool's timeout."""

    def run():
        try:
            return fn(*args, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def log_in(context, user, base_url):
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": base_url}])


def live(page):
    """Wait, up to a generous 20 s, for the match page to say "Live": its socket
    is open and its snapshot has landed (static/js/match.js), so nothing the
    socket sends at connect can redraw what the test then clicks. (A fresh-clone
    CI run on a loaded machine once took over 10 s for three pages at once.)"""
    expect(page.locator("#connection-status")).to_have_text("Live", timeout=20_000)


#: This seat's decision, ready to click: its turn, a move form's button not busy.
ENABLED_DECISION = "#controls[data-my-turn] form[ws-send] button:not([disabled])"
DECISION_OR_OVER = f"""() => (document.querySelector('#status')?.textContent || '').includes('Match over.')
    || !!document.querySelector('{ENABLED_DECISION}')"""


@pytest.fixture
def screenshots(tmp_path_factory):
    return tmp_path_factory.mktemp("screens")


def test_one_person_plays_three_fast_computers_to_the_result(page, live_server_url, celery_worker,
                                                              screenshots, csp_violations):
    # Seat 0 is one step from home with three pieces home; the computers are in base.
    state = ludo_state(4, pieces=[[56, 56, 56, 53], [-1] * 4, [-1] * 4, [-1] * 4])
    # With the test seed and this id the human first rolls 4 (no move), so the
    # computers play before the human can finish.
    match = in_thread(make_match, seats=("human", "easy", "normal", "strong"), state=state,
                      computer_speed="fast", public_id="solo0003")
    user = match.seats.get(index=0).user
    log_in(page.context, user, live_server_url)
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    page.screenshot(path=screenshots / "start.png", full_page=True)
    status = page.locator("#status")
    for _ in range(80):
        # A state the page shows: the match is over, or it is this seat's turn and
        # its decision's button is enabled (not the one just sent, which stays
        # disabled until its answer; three computers may take a while on a loaded machine).
        page.wait_for_function(DECISION_OR_OVER, timeout=60_000)
        if "Match over." in status.inner_text():
            break
        button = page.locator(ENABLED_DECISION).first.element_handle()
        button.click()
        # Sent: its form is locked (or the answer already replaced it).
        page.wait_for_function("b => !b.isConnected || b.disabled", arg=button)
    expect(status).to_contain_text("Match over.", timeout=20_000)
    page.screenshot(path=screenshots / "end.png", full_page=True)
    m = Match.objects.get(pk=match.pk)
    assert m.status == "finished"
    ranks = dict(m.seats.values_list("index", "rank"))
    assert sorted(ranks.values()).count(1) == 1
    expect(status).to_contain_text(m.seed)
    assert Move.objects.filter(match=m, actor="seat", seat__in=[1, 2, 3]).exists()
    assert csp_violations == []


def test_two_people_see_each_others_moves_live_and_reload_resumes(browser, live_server_url):
    match = in_thread(make_match, seats=("human", "human"), state=ludo_state())
    users = {s.index: s.user for s in match.seats.select_related("user")}
    pages = {}
    for i in (0, 1):
        context = browser.new_context()
        log_in(context, users[i], live_server_url)
        pages[i] = context.new_page()
        pages[i].goto(f"{live_server_url}/m/{match.public_id}/")
        live(pages[i])
    expect(pages[1].locator("#controls")).to_contain_text("Waiting")
    pages[0].get_by_role("button", name="Roll the die").click()
    # Seat 1 sees the roll without reloading.
    expect(pages[1].locator("#move-list")).to_contain_text("rolled", timeout=20_000)
    version = Match.objects.get(pk=match.pk).version
    expect(pages[1].locator("#match")).to_have_attribute("data-version", str(version))
    # Whoever is to move now moves; the other sees it.
    m = Match.objects.get(pk=match.pk)
    mover = m.state["turn"]
    watcher = 1 - mover
    pages[mover].locator("#controls form[ws-send] button").first.click()
    expect(pages[watcher].locator("#match")).to_have_attribute(
        "data-version", str(version + 1), timeout=20_000)
    # Reloading mid-match resumes it at the current position.
    lines = pages[watcher].locator("#move-list li").count()
    pages[watcher].reload()
    live(pages[watcher])
    expect(pages[watcher].locator("#move-list li")).to_have_count(lines)
    expect(pages[watcher].locator("#match")).to_have_attribute("data-version", str(version + 1))
    for p in pages.values():
        p.context.close()


def test_a_move_can_be_made_with_javascript_disabled(browser, live_server_url):
    match = in_thread(make_match, seats=("human", "human"), state=ludo_state())
    user = match.seats.get(index=0).user
    context = browser.new_context(java_script_enabled=False)
    log_in(context, user, live_server_url)
    page = context.new_page()
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    page.get_by_role("button", name="Roll the die").click()
    expect(page.locator("#move-list")).to_contain_text("rolled")
    assert Match.objects.get(pk=match.pk).version == match.version + 1
    context.close()


def test_a_spectator_watches_without_an_account(page, live_server_url):
    match = in_thread(make_match, seats=("human", "human"), state=ludo_state())
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    assert page.locator("#controls").count() == 0
    from games import actions

    in_thread(actions.play_move, match.public_id, match.seats.get(index=0).user, "roll", match.version)
    expect(page.locator("#move-list")).to_contain_text("rolled", timeout=20_000)
