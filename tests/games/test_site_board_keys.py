"""Each game's keyboard words for the board come from its GameSite (``board_keys``),
never from the board's script naming a game."""

import pytest
from django.utils.functional import Promise

from games import sites


@pytest.mark.parametrize("kind", sites.kinds())
def test_every_game_lists_its_board_keys_as_pairs_of_text(kind):
    keys = sites.get_site(kind).board_keys
    # Text, or a lazy translation of it (read in each request's language).
    assert keys and all(len(pair) == 2 and all(isinstance(s, str | Promise) and str(s) for s in pair)
                        for pair in keys)


def test_the_dice_games_share_the_keys_in_their_own_words():
    words = {kind: dict(sites.get_site(kind).board_keys) for kind in ("ludo", "roundabout")}
    assert words["ludo"]["R"] == "roll the die" and words["ludo"]["N or →"] == "next piece"
    assert words["roundabout"]["R"] == "roll the dice" and words["roundabout"]["P or ←"] == "previous dart"
    assert [k for k, _ in sites.get_site("ludo").board_keys] == [k for k, _ in sites.dice_board_keys()]


def test_a_game_without_its_own_keys_gets_the_shared_ones():
    assert sites.GameSite(name="Some game").board_keys == sites.dice_board_keys("piece", "roll")
