"""Dice race in a real Chromium (docs/adding-a-game.md): a whole match against a
computer player on a real daphne and Celery worker, clicked to its end, with the
game's own styles (its GameSite.stylesheets) and words (its status and seat
phrases) on the page, then its rules page with the pictures its site declares.
And the proof that the game is one folder: nothing outside tests/dicerace/ names
it (its registration for the processes the test starts is its own settings.py,
and its ``dicerace`` fixture's for the test process)."""

import re
import subprocess

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from games.models import Match
from tests import services
from tests.e2e.conftest import _close_leftover_contexts, browser_type_launch_args  # noqa: F401 - Chromium
from tests.e2e.test_live_play import DECISION_OR_OVER, ENABLED_DECISION, in_thread, live, log_in
from tests.factories import make_user

pytestmark = [pytest.mark.slow, pytest.mark.e2e]

SETTINGS = {"DJANGO_SETTINGS_MODULE": "tests.dicerace.settings"}
#: dicerace.css's fill of a cell (the shared styles give an SVG rect none of their own).
CELL_FILL = "rgb(240, 232, 208)"


@pytest.fixture
def dicerace_site(dicerace, transactional_db):
    """daphne and a Celery worker with dice race registered (tests.dicerace.settings);
    yields the site's base URL."""
    daphne, url = services.start_daphne("daphne-dicerace-browser", wait=False, **SETTINGS)
    services.purge_task_queues()
    worker = services.start_celery_worker("celery-worker-dicerace-browser", wait=False, **SETTINGS)
    try:
        services.wait_ready(daphne, worker)  # started side by side
        yield url
    finally:
        worker.stop()
        daphne.stop()


def _start(kind):
    user = make_user("browser_racer")
    client = Client()
    client.force_login(user)
    response = client.post(reverse("play"), {"kind": kind, "players": 2, "level_1": "easy", "level_2": "easy",
                                             "level_3": "easy", "speed": "fast", "theme": "plain"})
    assert response.status_code == 302, response.content.decode()
    return user, Match.objects.get(kind=kind)


def _cell_fill(page, selector):
    return page.locator(selector).first.evaluate("el => getComputedStyle(el).fill")


def test_a_whole_dice_race_in_the_browser_with_its_own_styles_and_words(browser, dicerace_site, dicerace):
    url = dicerace_site
    user, match = in_thread(_start, dicerace)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    log_in(context, user, url)
    page = context.new_page()
    page.goto(f"{url}/m/{match.public_id}/")
    live(page)

    # Its stylesheet is loaded and applies; its words are the page's.
    assert page.locator('link[rel="stylesheet"][href$="css/dicerace.css"]').count() == 1
    assert _cell_fill(page, "#board .dr-cell") == CELL_FILL
    expect(page.locator("#seats .home").first).to_have_text(re.compile(r"^on cell \d+ of 20$"))
    expect(page.locator("#status")).to_contain_text("to roll.")
    # The keyboard help and the board's hints name its markers (GameSite.board_keys, piece_word).
    key_words = page.locator("#board-key-words")
    assert "next marker" in key_words.evaluate("t => t.content.textContent")
    expect(key_words).to_have_attribute("data-piece", "marker")

    status, rolls = page.locator("#status"), 0
    for _ in range(80):
        # The match is over, or it is this seat's turn and its button is enabled
        # (the computer rolls on the Celery worker in between).
        page.wait_for_function(DECISION_OR_OVER, timeout=60_000)
        if "Match over." in status.inner_text():
            break
        expect(page.locator(ENABLED_DECISION).first).to_have_text("Roll the die")
        button = page.locator(ENABLED_DECISION).first.element_handle()
        button.click()
        rolls += 1
        page.wait_for_function("b => !b.isConnected || b.disabled", arg=button)  # sent
    expect(status).to_contain_text("Match over.", timeout=20_000)
    expect(status).to_contain_text("won")
    assert rolls >= 1
    ended = in_thread(lambda: Match.objects.get(pk=match.pk))
    assert ended.status == Match.Status.FINISHED and ended.end_reason == "finished"
    cells = page.locator("#seats .home").all_text_contents()
    assert "on cell 20 of 20" in cells, cells  # the winner's marker on the goal
    assert _cell_fill(page, "#board .dr-cell") == CELL_FILL  # still styled after every update

    # Its rules page: its styles, and its pictures drawn by its own board code.
    page.goto(f"{url}{reverse('rules', args=[dicerace])}")
    expect(page.locator("h1")).to_have_text("Dice race: how to play")
    expect(page.locator(".howto-picture")).to_have_count(2)
    expect(page.locator(".howto-picture figcaption").first).to_contain_text("both markers on cell 0")
    assert _cell_fill(page, ".howto-picture .dr-cell") == CELL_FILL
    context.close()


def test_nothing_outside_its_folder_names_it():
    """The files outside tests/dicerace/ that name dice race (docs and the README,
    which describe it, aside; a mention of one of its tests' paths, tests/dicerace/...,
    cites it without naming the game): none. Its one registration is in its folder."""
    found = subprocess.run(["git", "grep", "-n", "-i", "-E", "dicerace|dice race", "--", ".",
                            ":!tests/dicerace", ":!docs", ":!README.md"],
                           cwd=services.ROOT, capture_output=True, text=True, check=False).stdout.splitlines()
    uncited = (re.sub(r"tests/dicerace/\S*", "", line) for line in found)
    naming = [line for line in uncited if re.search(r"dicerace|dice race", line, re.IGNORECASE)]
    assert naming == [], naming
