"""The seats list (``{% seats_list %}``, games/templatetags/board_parts.py): built
in Python for every public frame; names escaped, each row's words as the page
shows them."""

import pytest

from games.frames import contexts, render
from games.models import Match
from games.templatetags.board_parts import seats_list
from tests.factories import make_match

pytestmark = pytest.mark.django_db


def test_the_seats_list_says_each_seats_state():
    match = make_match(seats=("human", "easy"))
    match.seats.filter(index=1).update(status="left", rank=2)
    match = Match.objects.get(pk=match.pk)
    frame = render.public_frame(contexts.public_context(match, list(match.seats.select_related("user"))))
    seats = frame[frame.index('<ol id="seats"'):frame.index("</ol>", frame.index('<ol id="seats"'))]
    assert seats.count('<li class="seat ') == 2
    assert '<span class="colour">Red</span>' in seats and '<span class="home">0/4 home</span>' in seats
    assert '<span class="gone">Left</span>' in seats and '<span class="rank">Place 2</span>' in seats


def test_the_seats_list_escapes_what_it_is_given():
    match = make_match(seats=("human", "easy"))
    seat = match.seats.get(index=0)
    row = {"seat": seat, "view": {"colour": "red"}, "name": "<b>ada</b>", "profile_url": '/u/a"b/',
           "is_turn": True, "rating": None}
    html = seats_list([row])
    assert "<b>ada</b>" not in html and "&lt;b&gt;ada&lt;/b&gt;" in html and 'href="/u/a&quot;b/"' in html
    assert '<li class="seat seat-red"><span class="swatch swatch-red"' in html
    turn = '<i id="seat-turn-0">(to move)</i>'
    assert turn in html
