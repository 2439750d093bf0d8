"""The board's shortcut list (the Settings tab, static/js/board.js) names each
game's own things and lists only keys that act there."""

from playwright.sync_api import expect

from tests.e2e.positions import make_decision
from tests.e2e.test_board_play import open_match
from tests.e2e.test_live_play import in_thread


def _listed(page):
    return page.evaluate("""() => [...document.querySelectorAll('#board-keys dt')]
        .map(dt => dt.textContent + ': ' + dt.nextElementSibling.textContent)""")


def test_each_game_lists_its_own_shortcuts(page, live_server_url):
    for name, says, never in (("ludo-choose", "R: roll the die", ("dart", "tiles")),
                              ("roundabout-darts", "R: roll the dice", ("piece", "tiles")),
                              ("rondo-place", "N or →: next space the chain may take",
                               ("roll", "dart", "piece"))):
        match = in_thread(make_decision, name)
        page.context.clear_cookies()
        open_match(page, live_server_url, match)
        listed = _listed(page)
        assert says in listed, (name, listed)
        assert not [line for line in listed if any(word in line for word in never)], (name, listed)


def test_rondo_undo_and_cancel_by_key_keep_the_focus_on_the_board(page, live_server_url):
    """U and Esc take placements back and focus stays on the board, so N and Enter
    go on working (before, the space that held the placement lost its highlight
    and focus fell to the page)."""
    match = in_thread(make_decision, "rondo-place")
    open_match(page, live_server_url, match)
    on_board = "document.activeElement.closest('.board-stage') !== null"
    for key in ("u", "Escape"):
        page.locator("#board").locator("..").focus()
        page.keyboard.press("n")
        page.keyboard.press("Enter")  # the space's tiles
        expect(page.locator("#rondo-picker button").first).to_be_focused()
        page.keyboard.press("Enter")  # the first of them
        expect(page.locator("#rondo-chain-list li")).to_have_count(1)
        score = int(page.locator("#rondo-running").text_content())
        expect(page.locator("#rondo-points")).to_have_text("point" if score == 1 else "points")
        page.locator("#board .rb-can").first.focus()
        page.keyboard.press(key)
        expect(page.locator("#rondo-chain-list li")).to_have_count(0)
        assert page.evaluate(on_board), key
        page.keyboard.press("n")
        assert page.evaluate("document.activeElement.classList.contains('rb-can')"), key
