"""Room pages without JavaScript: create, lobby, invite links (shown once),
joining, the host's forms, starting; refusals are pages, never 500s. Board
themes: the solo form, the backdrop drawing and its credits."""

import re

import pytest

from core import ratelimits
from games import themes
from games.models import Match
from matchmaking.models import Invite, Room, RoomMember
from matchmaking.rooms import actions as rooms
from tests.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quiet(monkeypatch):
    from games import push, tasks
    from matchmaking.rooms import push as room_push

    async def drop(*args):
        pass

    monkeypatch.setattr(room_push, "_send_all", drop)
    monkeypatch.setattr(push, "_send_all", drop)
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)
    ratelimits.reset()


ROOM_FORM = {"kind": "ludo", "seats": "3", "seat_2": "", "seat_3": "strong", "turn_seconds": "30",
             "idle_limit": "4", "autoplay_forced": "on", "side": "blue", "theme": "south_asia"}


def test_creating_a_room_and_inviting_a_friend(client):
    host = make_user()
    client.force_login(host)
    assert client.get("/rooms/new/").status_code == 200
    response = client.post("/rooms/new/", ROOM_FORM)
    room = Room.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/rooms/{room.code}/"
    assert room.turn_seconds == 60 and room.idle_limit == 4 and room.theme == "south_asia"
    assert room.options == {"autoplay_forced": True}
    lobby = client.get(f"/rooms/{room.code}/").content.decode()
    assert room.code in lobby and "Computer (Strong)" in lobby and "Open seat" in lobby
    client.post(f"/rooms/{room.code}/invite/")
    lobby = client.get(f"/rooms/{room.code}/").content.decode()
    link = re.search(r'value="(http://testserver/rooms/join/[^"]+/)"', lobby).group(1)
    assert "Unused" in lobby
    assert link not in client.get(f"/rooms/{room.code}/").content.decode()  # shown once
    friend = make_user()
    client.force_login(friend)
    path = link.removeprefix("http://testserver")
    assert b"Join the room" in client.get(path).content
    assert client.post(path)["Location"] == f"/rooms/{room.code}/"
    assert rooms.is_member(room, friend)
    client.force_login(make_user())
    refused = client.post(path)
    assert refused.status_code == 400 and rooms.INVITE_REFUSED.encode() in refused.content


def test_bad_room_forms_and_posts_are_refused_plainly(client):
    host = make_user()
    client.force_login(host)
    assert client.post("/rooms/new/", dict(ROOM_FORM, seats="7")).status_code == 400
    assert client.post("/rooms/new/", dict(ROOM_FORM, kind="chess")).status_code == 400
    assert not Room.objects.exists()
    room = rooms.do_create_room(host, "ludo", 2, {})
    for path, data in ((f"/rooms/{room.code}/computer/", {"seat": "x", "level": "easy"}),
                       (f"/rooms/{room.code}/remove/", {"user": "nobody"}),
                       (f"/rooms/{room.code}/start/", {}),
                       (f"/rooms/{room.code}/invites/999/revoke/", {}),
                       ("/rooms/NOSUCH/invite/", {})):
        assert client.post(path, data).status_code == 302
    assert client.get("/rooms/NOSUCH/").status_code == 404
    client.logout()
    assert client.get(f"/rooms/{room.code}/").status_code == 404  # as for no room (test_private_answers)
    assert client.post("/rooms/join/whatever-token-1234/").status_code == 302  # to log in


def test_the_host_runs_the_lobby_with_forms_and_starts(client):
    host, friend = make_user(), make_user()
    room = rooms.do_create_room(host, "ludo", 3, {})
    _inv, token = rooms.do_create_invite(room.code, host)
    rooms.do_redeem_invite(token, friend)
    client.force_login(host)
    client.post(f"/rooms/{room.code}/computer/", {"seat": "2", "level": "easy"})
    started = client.post(f"/rooms/{room.code}/start/")
    match = Match.objects.get()
    assert started["Location"] == f"/m/{match.public_id}/"
    page = client.get(f"/m/{match.public_id}/").content.decode()
    assert 'id="chat-log"' in page and "Good luck" in page and "Pause" in page
    client.force_login(friend)
    assert "Pause" not in client.get(f"/m/{match.public_id}/").content.decode()


def test_removing_and_leaving_with_forms(client):
    host, friend = make_user(), make_user()
    room = rooms.do_create_room(host, "ludo", 3, {})
    _inv, token = rooms.do_create_invite(room.code, host)
    rooms.do_redeem_invite(token, friend)
    client.force_login(host)
    client.post(f"/rooms/{room.code}/remove/", {"user": friend.pk})
    assert RoomMember.objects.get(user=friend).status == "removed"
    client.post(f"/rooms/{room.code}/invite/")
    inv = Invite.objects.filter(used_at__isnull=True).get()
    client.post(f"/rooms/{room.code}/invites/{inv.pk}/revoke/")
    assert Invite.objects.get(pk=inv.pk).state() == "revoked"
    assert client.post(f"/rooms/{room.code}/leave/")["Location"] == "/play/"
    assert Room.objects.get(pk=room.pk).status == "closed"


def test_the_play_page_offers_a_private_room_and_board_themes(client):
    client.force_login(make_user())
    page = client.get("/play/").content.decode()
    assert "/rooms/new/" in page and 'name="theme"' in page and "Map: South Asia" in page


def test_a_solo_match_with_a_map_backdrop_shows_it_and_its_credits(client):
    client.force_login(make_user())
    response = client.post("/play/", {"kind": "ludo", "players": "2", "level_1": "easy", "level_2": "easy",
                                      "level_3": "easy", "speed": "fast", "theme": "europe"})
    match = Match.objects.get()
    assert response.status_code == 302 and match.theme == "europe"
    page = client.get(f"/m/{match.public_id}/").content.decode()
    assert 'href="/boards/europe.svg"' in page and themes.MAP_CREDIT in page
    svg = client.get("/boards/europe.svg")
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml"
    assert svg.content.count(b"<path") > 20 and b"Natural Earth" in svg.content
    assert client.get("/boards/plain.svg").status_code == 404
    assert client.get("/boards/nowhere.svg").status_code == 404
    about = client.get("/about/").content.decode()
    assert "Natural Earth" in about and "world-atlas" in about


def test_the_plain_board_has_no_backdrop_and_the_theme_never_changes_the_rules(client):
    from tests.factories import make_match

    plain = make_match(seats=("human", "easy"))
    themed = make_match(seats=("human", "easy"), theme="south_asia")
    # The theme is not an engine option: the same rules and starting state.
    assert plain.start_state == themed.start_state and plain.options == themed.options == {}
    client.force_login(plain.seats.get(index=0).user)
    page = client.get(f"/m/{plain.public_id}/").content.decode()
    assert "/boards/" not in page and themes.MAP_CREDIT not in page


def test_a_solo_map_theme_is_refused_for_other_games(client):
    from games.forms import SoloMatchForm

    form = SoloMatchForm({"kind": "ludo", "players": "2", "level_1": "easy", "level_2": "easy",
                          "level_3": "easy", "speed": "fast", "theme": "mars"})
    assert not form.is_valid() and "theme" in form.errors


def test_an_invite_page_names_the_game_and_the_host_to_a_valid_link_only(client):
    from core import ratelimits

    host = make_user("ida_host")
    room = rooms.do_create_room(host, "roundabout", 3, {})
    _invite, token = rooms.do_create_invite(room.code, host)
    path = f"/rooms/join/{token}/"
    page = client.get(path)  # a friend without an account
    text = page.content.decode()
    assert page.status_code == 200
    assert "ida_host invites you to play Roundabout" in text and "3 seats" in text
    assert f'href="/signup/?next={path}"' in text.replace("%2F", "/")
    assert "Join the room" not in text  # not signed in: sign up or log in first
    friend = make_user()
    client.force_login(friend)
    assert "Join the room" in client.get(path).content.decode()

    client.logout()
    for bad in ("/rooms/join/" + "x" * 32 + "/", "/rooms/join/short/"):
        refused = client.get(bad)
        assert refused.status_code == 404 and rooms.INVITE_REFUSED in refused.content.decode()
        assert "ida_host" not in refused.content.decode() and "Roundabout" not in refused.content.decode()
    rooms.do_redeem_invite(token, friend)  # used: the same answer as an unknown link
    used = client.get(path).content.decode()
    assert rooms.INVITE_REFUSED in used and "ida_host" not in used

    ratelimits.reset()
    try:
        statuses = [client.get("/rooms/join/" + "y" * 32 + "/").status_code for _ in range(61)]
    finally:
        ratelimits.reset()
    assert statuses == [404] * 60 + [429]  # rooms.INVITE_VIEW_RATE, per address
