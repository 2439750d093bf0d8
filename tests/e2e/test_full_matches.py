"""One whole match of each game to its result (Roundabout and Rondo from their
first roll, Ludo from the middle game: from its first roll it took 250 s of a
loaded CI run for no decision the middle game lacks), played in a
real Chromium by acting on the board (static/js/board.js, rondo.js): the dice
are clicked to roll, pieces and darts and their destinations are clicked, Rondo's
spaces and tiles are picked; a button is used only for what has no place on the
board (Roundabout's pass, accept and decline; Rondo's draw instead of placing).
At 1280x800; the phone size plays from near the end (test_board_play.py). The
opponent is a fast strong computer, so each match ends whoever wins."""

import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from games.engine import get_rules
from games.models import Match, Move
from games.roundabout.svg import board_context
from tests.e2e.test_board_play import open_match
from tests.e2e.test_live_play import in_thread
from tests.factories import ludo_state, make_match

DESKTOP = {"width": 1280, "height": 800}
LIMIT_SECONDS = 600  # a generous bound on one match, not a speed claim

# What this seat may do now, read in one evaluation (a frame cannot split it).
SITUATION = """() => {
  const q = (s) => document.querySelector(s);
  const confirm = q('#board-confirm');
  const chooser = q('.bd-chooser button');
  return {
    over: !!q('#status .result'),
    mine: !!q('#controls[data-my-turn]'),
    busy: !!q('#board .bd-layer.is-busy'),
    roll: !!q('#dice.can-roll'),
    chooser: !!chooser,
    dests: document.querySelectorAll('#board .bd-dest').length,
    targets: window.parlourBoard ? window.parlourBoard.targets().length : 0,
    confirm: !!(confirm && !confirm.disabled),
    rondoCan: document.querySelectorAll('#board .rb-can').length,
    rondoPicker: document.querySelectorAll('#rondo-picker button').length,
    rondoSend: (b => !!(b && !b.disabled && b.offsetParent))(q('#rondo-send')),
  };
}"""


def _step(page, s, acts):
    """One act on the board (or, with nothing there, the decision's button)."""
    board = page.locator("#board")
    if s["chooser"]:
        page.locator(".bd-chooser button").first.click()
        acts["chooser"] += 1
    elif s["roll"]:
        page.locator("#dice").click()
        acts["roll"] += 1
    elif s["rondoPicker"]:
        page.locator("#rondo-picker button").first.click()
        acts["tile"] += 1
    elif s["rondoCan"]:
        board.locator(".rb-can").first.click(force=True)
        acts["space"] += 1
    elif s["rondoSend"]:
        try:
            page.locator("#rondo-send").click(timeout=5_000)
        except PlaywrightTimeoutError:
            # A frame replaced the controls between the read and the click (the
            # new composer starts empty, its Send disabled): read the board again.
            return
        acts["send"] += 1
    elif s["dests"]:
        board.locator(".bd-dest").first.click(force=True)
        acts["destination"] += 1
    elif s["targets"]:
        board.locator(".bd-target").first.click(force=True)
        acts["target"] += 1
    elif s["confirm"]:
        page.locator("#board-confirm").click()
        acts["confirm"] += 1
    else:
        button = page.locator("#controls form[ws-send] button:visible:not([disabled])").first
        if button.count():
            # The board may not have drawn this frame's choices yet (a loaded machine):
            # a button only for a decision the board still offers nothing for.
            page.wait_for_timeout(300)
            if page.evaluate(SITUATION) != s:
                return
            button.click()
            acts["button"] += 1
            return
        page.wait_for_timeout(100)  # nothing to do yet: the frame is on its way


def play_to_the_result(page, match, each=None):
    """Act on the board until the match is over: {act: count}. ``each(acts)``,
    when given, is called once the page has answered each act; a true answer
    stops the play there (a test that plays a few turns, or reads the page as
    it goes)."""
    acts = dict.fromkeys(("roll", "target", "destination", "confirm", "chooser", "space", "tile", "send",
                          "button"), 0)
    ends = time.monotonic() + LIMIT_SECONDS
    while time.monotonic() < ends:
        s = page.evaluate(SITUATION)
        error = (page.locator("#match-error").text_content() or "").strip()
        if error:  # acting on the board never meets a refusal (a stale version, a move sent twice)
            rows = (Move.objects.filter(match=match).order_by("-ply")
                    .values_list("ply", "actor", "notation")[:6])
            raise AssertionError(f"error frame: {error!r} after {acts}; last moves {list(rows)}")
        if s["over"]:
            return acts
        if not s["mine"] or s["busy"]:
            page.wait_for_timeout(100)
            continue
        _step(page, s, acts)
        # Act again only once the page has answered (a second click before the
        # answer would send the same move twice, refused as out of date).
        answered = time.monotonic() + 5
        while time.monotonic() < answered and page.evaluate(SITUATION) == s:
            page.wait_for_timeout(50)
        if each is not None and each(acts):
            return acts
    raise AssertionError(f"not over after {LIMIT_SECONDS} s: {acts}, {Match.objects.get(pk=match.pk).status}")


def _finished(match):
    m = Match.objects.get(pk=match.pk)
    assert m.status == "finished", m.status
    assert sorted(m.seats.values_list("rank", flat=True))[0] == 1
    return m


def _whole_match(page, live_server_url, kind, **options):
    """A ``kind`` match against a fast strong computer, played on the board at
    1280x800 to its result: (the finished match, {act: count})."""
    match = in_thread(make_match, kind, ("human", "strong"), computer_speed="fast", **options)
    page.set_viewport_size(DESKTOP)
    open_match(page, live_server_url, match)
    acts = play_to_the_result(page, match)
    expect(page.locator("#status")).to_contain_text("Match over.")
    m = _finished(match)
    return m, acts


@pytest.mark.timeout(LIMIT_SECONDS + 120)  # pytest-timeout's 300 s is less than a loaded CI machine needs
def test_a_whole_ludo_match_played_on_the_board(page, live_server_url, celery_worker, csp_violations):
    # Every piece out of base, three to bring home on each side (captures may send
    # some back); a fixed id fixes the dice, so every run plays the same match.
    state = ludo_state(2, pieces=[[30, 40, 48, 56], [20, 35, 50, 56]])
    m, acts = _whole_match(page, live_server_url, "ludo", state=state, public_id="wholeludo")
    assert acts["roll"] > 5 and acts["target"] > 0 and acts["destination"] > 0, acts
    assert acts["button"] == 0, acts  # Ludo has nothing off the board
    assert Move.objects.filter(match=m, actor="seat", seat=0, notation__startswith="p").exists()
    assert csp_violations == []


@pytest.mark.timeout(LIMIT_SECONDS + 120)  # pytest-timeout's 300 s is less than a loaded CI machine needs
def test_a_whole_roundabout_match_played_on_the_board(page, live_server_url, celery_worker, csp_violations):
    m, acts = _whole_match(page, live_server_url, "roundabout")
    assert acts["roll"] > 5 and acts["destination"] > 0 and acts["confirm"] > 0, acts
    # Two dice composed and sent as one message: at least one of the seat's turns
    # played two moves that one change applied.
    versions = list(Move.objects.filter(match=m, actor="seat", seat=0).exclude(notation="roll")
                    .values_list("version_after", flat=True))
    assert len(versions) > len(set(versions)), "no turn was composed of two moves"
    # The board's accessible name, its words kept by the updates part by part, is
    # the final position's: the title, then each seat's darts.
    rules = get_rules("roundabout")
    board = board_context(rules.view(rules.load(m.state), None))
    expect(page.locator("#board svg")).to_have_accessible_name(
        " ".join([board["title"], *(s["text"] for s in board["seat_texts"])]))
    assert csp_violations == []


@pytest.mark.timeout(LIMIT_SECONDS + 120)  # pytest-timeout's 300 s is less than a loaded CI machine needs
def test_a_whole_rondo_match_played_on_the_board(page, live_server_url, celery_worker, csp_violations):
    m, acts = _whole_match(page, live_server_url, "rondo")
    assert acts["space"] > 0 and acts["tile"] > 0 and acts["send"] > 0, acts
    assert Move.objects.filter(match=m, actor="seat", seat=0, notation__startswith="place").exists()
    assert csp_violations == []
