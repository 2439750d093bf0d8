"""The board's shortcut list (the Settings tab, static/js/board.js) names each
game's own things and lists only keys that act there."""

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
