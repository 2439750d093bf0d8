"""A ban closes the user's open sockets with 4003 (README "Moderation"), through their
per-user group (accounts.sockets), with the real Redis channel layer; a
banned user's new socket is refused with 4003; other users' sockets stay."""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from accounts.models import BAN_FOREVER, User
from config.routing import websocket_urlpatterns
from games.models import Match, Seat
from moderation import actions as moderation
from tests.factories import ludo_state, make_match, make_user

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

router = URLRouter(websocket_urlpatterns)


async def connect(path, user):
    comm = WebsocketCommunicator(router, path)
    comm.scope["user"] = user
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm


async def close_code(comm, timeout=5.0):
    """The close code the server sends within ``timeout`` seconds (frames before it are skipped)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        message = await comm.receive_output(timeout=max(0.01, end - loop.time()))
        if message["type"] == "websocket.close":
            return message.get("code")


@sync_to_async
def ranked_match():
    match = make_match(seats=("human", "human"), state=ludo_state(), rated=True)
    users = [s.user for s in match.seats.select_related("user").order_by("index")]
    moderator = User.objects.create_user("mod", "mod@example.com", "a sturdy pass 42", is_staff=True)
    return match, users, moderator


async def test_a_ban_closes_the_players_match_socket_with_4003_within_5_seconds():
    match, (stayer, banned), moderator = await ranked_match()
    theirs = await connect(f"/ws/match/{match.public_id}/", banned)
    others = await connect(f"/ws/match/{match.public_id}/", stayer)
    await theirs.receive_from(timeout=5)  # snapshot
    await others.receive_from(timeout=5)
    loop = asyncio.get_running_loop()
    started = loop.time()
    await sync_to_async(moderation.ban_user)(moderator, banned, None, "cheating")
    assert await close_code(theirs) == 4003
    assert loop.time() - started < 5
    # The other player's socket stays open and sees the match end.
    text = await others.receive_from(timeout=5)
    assert "Match over" in text or 'id="frame-version"' in text
    seat = await sync_to_async(Seat.objects.get)(match=match, user=banned)
    assert seat.status == Seat.Status.LEFT
    status = await sync_to_async(lambda: Match.objects.get(pk=match.pk).status)()
    assert status == Match.Status.FINISHED
    await others.disconnect()


async def test_a_banned_users_new_match_socket_is_refused_with_4003():
    match, (_, banned), _ = await ranked_match()
    await sync_to_async(User.objects.filter(pk=banned.pk).update)(banned_until=BAN_FOREVER)
    banned = await sync_to_async(User.objects.get)(pk=banned.pk)
    comm = await connect(f"/ws/match/{match.public_id}/", banned)
    assert await close_code(comm) == 4003


async def test_a_ban_closes_the_queue_socket():
    from matchmaking.queue import actions as queue_actions

    user = await sync_to_async(make_user)()
    moderator = await sync_to_async(make_user)()
    await sync_to_async(queue_actions.join_queue)(user, "ludo", 4)
    comm = await connect("/ws/queue/", user)
    await comm.receive_from(timeout=5)
    await sync_to_async(moderation.ban_user)(moderator, user, None, "abuse")
    assert await close_code(comm) == 4003


async def test_a_ban_closes_the_room_socket_and_the_lobby_lets_them_go():
    from matchmaking.rooms import actions as rooms

    @sync_to_async
    def lobby():
        host, friend, moderator = make_user(), make_user(), make_user()
        room = rooms.do_create_room(host, "ludo", 2)
        _invite, token = rooms.do_create_invite(room.code, host)
        rooms.do_redeem_invite(token, friend)
        return room, host, friend, moderator

    room, host, friend, moderator = await lobby()
    theirs = await connect(f"/ws/room/{room.code}/", friend)
    hosts = await connect(f"/ws/room/{room.code}/", host)
    await theirs.receive_from(timeout=5)
    await hosts.receive_from(timeout=5)
    await sync_to_async(moderation.ban_user)(moderator, friend, None, "abuse")
    assert await close_code(theirs) == 4003
    assert await hosts.receive_from(timeout=5)  # the host's socket stays: the lobby is pushed
    member = await sync_to_async(lambda: room.members.get(user=friend).status)()
    assert member == "left"
    await hosts.disconnect()


async def test_a_ban_closes_the_players_arena_socket_too():
    from datetime import timedelta

    from django.utils import timezone

    from arenas.models import Arena

    match, (stayer, banned), moderator = await ranked_match()
    arena = await sync_to_async(Arena.objects.create)(
        name="Duel", kind="ludo", seats=2, minutes=30, starts_at=timezone.now() - timedelta(minutes=1))
    theirs = await connect(f"/ws/arena/{arena.pk}/", banned)
    await sync_to_async(moderation.ban_user)(moderator, banned, None, "cheating")
    assert await close_code(theirs) == 4003
