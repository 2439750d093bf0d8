"""A member who leaves a room is closed out of its lobby as a removed one is
(README "Rooms"), on a real daphne and Redis: every lobby socket of theirs
(another tab too) is told and closed with 4001, so they no longer hear its
chat or its next match; the members who stay keep theirs."""

import pytest
from django.urls import reverse

from accounts.close_codes import CLOSE_NOT_ALLOWED
from matchmaking.rooms import actions as rooms
from tests.factories import make_user
from tests.live_sockets import LiveSocket, cookie_of, open_all, signed_in_client

pytestmark = [pytest.mark.slow]


@pytest.fixture(autouse=True)
def _close_sockets():
    yield
    LiveSocket.close_all()


def test_a_member_who_leaves_has_every_lobby_socket_closed_and_the_others_stay(live_server_url):
    host, friend = make_user(), make_user()
    room = rooms.do_create_room(host, "ludo", 2)
    _invite, token = rooms.do_create_invite(room.code, host)
    rooms.do_redeem_invite(token, friend)
    path = f"/ws/room/{room.code}/"
    leaving = signed_in_client(friend)
    tabs = [open_all(live_server_url, {"room": path}, cookie_of(leaving))["room"] for _ in range(2)]
    hosts = open_all(live_server_url, {"room": path}, cookie_of(signed_in_client(host)))["room"]

    assert leaving.post(reverse("room_leave", args=[room.code])).status_code == 302

    assert [tab.close_code() for tab in tabs] == [CLOSE_NOT_ALLOWED] * 2
    assert all(any("You left the room" in frame for frame in tab.last_frames) for tab in tabs)
    assert hosts.answers()
