"""The rules pages' "In one screen" (games/howto.py): pictures drawn by each game's
own board code, several on one page without clashing ids."""

import re
from collections import Counter

import pytest


@pytest.mark.parametrize("kind, board_class", [("ludo", "ludo-board"), ("roundabout", "roundabout-board"),
                                               ("rondo", "rondo-board")])
def test_a_rules_page_opens_with_one_screen_and_two_boards_of_its_own_drawing(client, kind, board_class):
    page = client.get(f"/rules/{kind}/").content.decode()
    howto = page[page.index('<section class="howto"'):page.index('id="rulebook"')]
    assert howto.count('<figure class="howto-picture">') == 2
    assert howto.count(f'class="board {board_class}"') == 2  # the match page's board template
    assert "hx-swap-oob" not in howto
    ids = Counter(re.findall(r'\bid="([^"]+)"', page))
    assert [i for i, n in ids.items() if n > 1] == []
    for ref in re.findall(r'(?:aria-labelledby|href)="#?(howto-[^"]+)"', howto):
        for one in ref.split():
            assert ids[one] == 1, one  # every reference inside a picture finds its own element
    assert "/play/" in howto and "The complete rules" in page
