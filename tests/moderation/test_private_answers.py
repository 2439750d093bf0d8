"""Private matches and rooms are for their members only, and outsiders get
one answer whether or not the thing exists (README "Moderation", "Private
rooms"): moderators too see a private match only in the admin."""

import re

import pytest

from matchmaking.rooms import actions as rooms
from matchmaking.rooms import views as views_rooms
from tests.factories import make_user, start_room_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def room_match(no_effects):
    host, friend = make_user(), make_user()
    match = start_room_match(host, [friend])
    return match, host, friend


def test_moderators_get_the_same_404_as_anyone_outside_a_private_match(client, moderator, superuser,
                                                                       room_match):
    match, host, _friend = room_match
    assert not match.is_public
    client.force_login(host)
    assert client.get(f"/m/{match.public_id}/").status_code == 200  # a member may
    for staff in (moderator, superuser):
        client.force_login(staff)
        pid = match.public_id
        for path in (f"/m/{pid}/", f"/m/{pid}/replay/", f"/m/{pid}/export.json"):
            private = client.get(path)
            missing = client.get(path.replace(match.public_id, "nosuchmatch"))
            assert private.status_code == missing.status_code == 404, path
        history = client.get(f"/u/{host.username}/matches/").content.decode()
        assert match.public_id not in history
        # Their review happens in the admin, which shows no hidden fact of a live match.
        assert client.get(f"/admin/games/match/{match.pk}/change/").status_code == 200


def section(page: str) -> str:
    """The page's own content (the rest holds a fresh CSRF token each time)."""
    return re.search(r"<section.*?</section>", page, re.S).group(0)


def test_a_room_page_says_the_same_for_a_private_room_and_for_none(client, no_effects):
    host = make_user()
    room = rooms.do_create_room(host, "ludo", 2, {})
    client.force_login(make_user())
    private, missing = client.get(f"/rooms/{room.code}/"), client.get("/rooms/NOSUCH/")
    assert private.status_code == missing.status_code == 404
    assert section(private.content.decode()) == section(missing.content.decode())
    assert views_rooms.NO_SUCH_ROOM in section(private.content.decode())
    # Nor do its forms tell an outsider more than the page.
    told = []
    for code in (room.code, "NOSUCH"):
        page = client.post(f"/rooms/{code}/invite/", follow=True)
        told.append([str(m) for m in page.context["messages"]])
    assert told[0] == told[1] == [views_rooms.NO_SUCH_ROOM]
