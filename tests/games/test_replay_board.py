"""The replay draws each position with the match page's own board and move
list (games.frames.contexts.public_context, the same board partial): at the end
of the record the replay's board is the match page's, byte for byte, and
its move list has the page's turns."""

from __future__ import annotations

import re

import pytest

from games.models import Move
from tests.factories import make_user, play_to_the_end
from tests.games.test_match_ratings import _no_push, near_end  # noqa: F401 (_no_push: a fixture)

pytestmark = pytest.mark.django_db


def board(html: str) -> str:
    start = html.index('<div id="board"')
    return re.sub(r">\s+<", "><", html[start : html.index("</svg>", start)].strip())


def turn_texts(html: str, list_class: str) -> list[str]:
    start = html.index(f'class="{list_class}')
    part = html[start : html.index("</ol>\n", start)]
    return [re.sub(r"<[^>]+>", "", t).strip() for t in part.split('<li class="turn')[1:]]


def test_the_replay_s_board_and_turns_are_the_match_page_s(client):
    match = play_to_the_end(near_end(users=[make_user("ada"), make_user("bo")]))
    total = Move.objects.filter(match=match).count()
    page = client.get(f"/m/{match.public_id}/").content.decode()
    replay = client.get(f"/m/{match.public_id}/replay/?ply={total}").content.decode()
    assert board(replay) == board(page)
    assert turn_texts(replay, "move-list replay-list") == turn_texts(page, "move-list")
    assert 'start="1"' in replay  # a match begun from a chosen position has no set-up lines
