"""Preset chat and the lobby socket: only ids from the fixed list are
accepted (free text and anything else refused, nothing shown), per-person
rate limit, live to everyone in the lobby or the match; only members
connect to a lobby (the code alone is not enough); a removed member's
socket is told and closed."""

import json

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from config.routing import websocket_urlpatterns
from core import ratelimits
from games import chat
from matchmaking.rooms import actions as rooms
from tests.factories import make_user, start_room_match

router = URLRouter(websocket_urlpatterns)


def test_only_preset_ids_have_a_text():
    assert chat.preset_text("good_game") == "Good game"
    assert len(chat.PHRASES) >= 6 and len(chat.EMOJI) >= 12
    for bad in ("Good game", "hello there", "", None, 3, ["good_game"], {"id": "oops"}, "good_game "):
        with pytest.raises(chat.ChatRefused):
            chat.preset_text(bad)


async def connect(path, user):
    comm = WebsocketCommunicator(router, path)
    comm.scope["user"] = user if user is not None else AnonymousUser()
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm


async def until(comm, text, timeout=5):
    """Frames received until one contains ``text`` (that frame returned)."""
    while True:
        frame = await comm.receive_from(timeout=timeout)
        if text in frame:
            return frame


@pytest_asyncio.fixture
async def fresh_limits():
    await sync_to_async(ratelimits.reset)()
    await chat.reset_limits()
    yield


@sync_to_async
def lobby_with_friend():
    host, friend = make_user(), make_user()
    room = rooms.do_create_room(host, "ludo", 3, {})
    _invite, token = rooms.do_create_invite(room.code, host)
    rooms.do_redeem_invite(token, friend)
    return room, host, friend


pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.mark.asyncio
async def test_lobby_members_see_seats_fill_live_and_chat(fresh_limits):
    room, host, friend = await lobby_with_friend()
    h = await connect(f"/ws/room/{room.code}/", host)
    f = await connect(f"/ws/room/{room.code}/", friend)
    snap = await until(h, 'id="room-seats"')
    assert friend.username in snap and "Make an invite link" in snap
    assert "Make an invite link" not in await until(f, 'id="room-controls"')
    # A third person joins by invite: both lobbies see the seat fill.
    newcomer = await sync_to_async(make_user)()
    _inv, token = await sync_to_async(rooms.do_create_invite)(room.code, host)
    await sync_to_async(rooms.do_redeem_invite)(token, newcomer)
    seated = f'<span class="name">{newcomer.username}</span>'
    assert 'id="room-seats"' in await until(f, seated)
    assert 'id="room-seats"' in await until(h, seated)
    # Chat: a preset reaches everyone; free text is refused and reaches no one.
    await f.send_to(text_data=json.dumps({"type": "chat", "id": "good_luck"}))
    for comm in (h, f):
        line = await until(comm, "chat-line")
        assert f"<strong>{friend.username}</strong>: Good luck" in line
    await h.send_to(text_data=json.dumps({"type": "chat", "id": "<b>hi</b> everyone"}))
    refusal = await until(h, 'id="room-error"')
    assert "Only the preset messages" in refusal and "everyone" not in refusal
    assert await f.receive_nothing(timeout=0.5)
    await h.send_to(text_data=json.dumps({"type": "chat", "text": "Good luck"}))
    assert "Only the preset messages" in await until(h, 'id="room-error"')
    assert await f.receive_nothing(timeout=0.3)
    await h.disconnect()
    await f.disconnect()


@pytest.mark.asyncio
async def test_chat_is_rate_limited_per_person(fresh_limits):
    room, host, friend = await lobby_with_friend()
    h = await connect(f"/ws/room/{room.code}/", host)
    f = await connect(f"/ws/room/{room.code}/", friend)
    limit = int(chat.CHAT_RATE.split("/")[0])
    for _ in range(limit):
        await h.send_to(text_data=json.dumps({"type": "chat", "id": "thumbs_up"}))
        await until(f, "chat-line")
    await h.send_to(text_data=json.dumps({"type": "chat", "id": "thumbs_up"}))
    assert "too fast" in await until(h, 'id="room-error"')
    assert await f.receive_nothing(timeout=0.5)
    await f.send_to(text_data=json.dumps({"type": "chat", "id": "wave"}))  # others still can
    assert "👋" in await until(h, "chat-line")
    await h.disconnect()
    await f.disconnect()


@pytest.mark.asyncio
async def test_only_members_connect_to_a_lobby_and_others_cannot_tell_it_exists(fresh_limits):
    room, host, friend = await lobby_with_friend()
    stranger = await sync_to_async(make_user)()
    for user in (stranger, None):
        comm = await connect(f"/ws/room/{room.code}/", user)
        assert (await comm.receive_output(timeout=5))["code"] == 4004  # as for no room at all
    comm = await connect("/ws/room/NOSUCH/", host)
    assert (await comm.receive_output(timeout=5))["code"] == 4004


@pytest.mark.asyncio
async def test_a_removed_member_is_told_and_disconnected(fresh_limits):
    room, host, friend = await lobby_with_friend()
    f = await connect(f"/ws/room/{room.code}/", friend)
    await until(f, 'id="room-controls"')
    await sync_to_async(rooms.do_remove_player)(room.code, host, friend.pk)
    assert "removed you" in await until(f, "removed you")
    assert (await f.receive_output(timeout=5))["type"] == "websocket.close"


@pytest.mark.asyncio
async def test_players_chat_in_a_room_match_and_free_text_is_refused(fresh_limits):
    host, friend = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    match = await sync_to_async(start_room_match)(host, [friend], computers=["easy"])
    h = await connect(f"/ws/match/{match.public_id}/", host)
    f = await connect(f"/ws/match/{match.public_id}/", friend)
    await until(h, 'data-kind="snapshot"')
    await until(f, 'data-kind="snapshot"')
    await h.send_to(text_data=json.dumps({"type": "chat", "id": "well_played"}))
    for comm in (h, f):
        assert f"<strong>{host.username}</strong>: Well played" in await until(comm, "chat-line")
    await f.send_to(text_data=json.dumps({"type": "chat", "id": "you are bad"}))
    assert "Only the preset messages" in await until(f, 'id="match-error"')
    assert await h.receive_nothing(timeout=0.5)
    await h.disconnect()
    await f.disconnect()


@pytest.mark.asyncio
async def test_spectators_of_a_public_match_cannot_chat(fresh_limits):
    from tests.factories import ludo_state, make_match

    match = await sync_to_async(make_match)(seats=("human", "human"), state=ludo_state())
    spectator = await connect(f"/ws/match/{match.public_id}/", None)
    await until(spectator, 'data-kind="snapshot"')
    await spectator.send_to(text_data=json.dumps({"type": "chat", "id": "oops"}))
    assert "Only the players" in await until(spectator, 'id="match-error"')
    await spectator.disconnect()
