"""A block hides the blocked player's preset chat from the blocker's
sockets, in a match and in a room's lobby (one way: the others, and the
blocked player, see every line); a block or an unblock made while the
sockets are open takes effect on them (``accounts.sockets.blocks_changed``).
Each "not shown" is proven by order, never by waiting: a later line from
someone else arrives first."""

import json

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from accounts import blocks, sockets
from config.routing import websocket_urlpatterns
from core import ratelimits
from games import chat
from matchmaking.rooms import actions as rooms
from tests.factories import ludo_state, make_match, make_user

router = URLRouter(websocket_urlpatterns)
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest_asyncio.fixture(autouse=True)
async def fresh_limits():
    await sync_to_async(ratelimits.reset)()
    await chat.reset_limits()
    yield


async def connect(path, user, ready):
    comm = WebsocketCommunicator(router, path)
    comm.scope["user"] = user
    connected, _ = await comm.connect(timeout=5)
    assert connected
    await until(comm, ready)
    return comm


async def until(comm, text, timeout=5):
    while True:
        frame = await comm.receive_from(timeout=timeout)
        if text in frame:
            return frame


async def say(comm, message_id):
    """Send a preset line and read it back on the sender's own socket."""
    await comm.send_to(text_data=json.dumps({"type": "chat", "id": message_id}))
    await until(comm, chat.PRESETS[message_id])


async def next_line(comm):
    return await until(comm, "chat-line")


async def lines_until(comm, text):
    """The chat lines ``comm`` gets up to the first holding ``text`` (included)."""
    lines = [await next_line(comm)]
    while text not in lines[-1]:
        lines.append(await next_line(comm))
    return lines


def said(name, text):
    return f"<strong>{name}</strong>: {text}"


async def round_trip(blocker, blocked, other, blocked_name, others=()) -> bool:
    """``blocked`` says "Well played" (``other`` sees it), then ``other``
    says "Oops"; returns whether the blocker's lines up to "Oops" held the
    "Well played". ``others``: further sockets, drained the same way."""
    await chat.reset_limits()
    await say(blocked, "well_played")
    assert said(blocked_name, "Well played") in await next_line(other)
    await say(other, "oops")
    await lines_until(blocked, "Oops")
    for comm in others:
        await lines_until(comm, "Oops")
    return any(said(blocked_name, "Well played") in line for line in await lines_until(blocker, "Oops"))


async def until_shown(blocker, blocked, other, blocked_name, *, shown: bool, rounds: int = 20):
    """Round trips (``round_trip``) until the blocker's socket shows (or
    hides) the blocked player's lines: the state a block or an unblock
    reaches once the socket has loaded it (``blocks_changed``)."""
    for _ in range(rounds):
        if await round_trip(blocker, blocked, other, blocked_name) is shown:
            return
    pytest.fail(f"the blocker's socket never {'showed' if shown else 'hid'} the lines")


async def test_the_blocker_does_not_see_the_blocked_players_chat_in_a_match():
    ada, bob, cat = [await sync_to_async(make_user)() for _ in range(3)]
    match = await sync_to_async(make_match)(seats=("human",) * 3, users=[ada, bob, cat],
                                            state=ludo_state(3))
    await sync_to_async(blocks.do_block)(ada, bob.username)
    path = f"/ws/match/{match.public_id}/"
    a, b, c = [await connect(path, u, 'data-kind="snapshot"') for u in (ada, bob, cat)]
    await say(b, "good_luck")  # bob sees his own line: the block is not shown to him
    assert said(bob.username, "Good luck") in await next_line(c)
    await say(c, "thanks")
    assert said(cat.username, "Thanks") in await next_line(a)  # not bob's, which came first
    assert said(cat.username, "Thanks") in await next_line(b)
    await say(a, "good_game")  # one way: ada's lines reach bob
    assert said(ada.username, "Good game") in await next_line(b)
    assert said(ada.username, "Good game") in await next_line(c)
    # Unblocked while connected: the socket is told, and shows bob's lines again.
    await sync_to_async(blocks.do_unblock)(ada, bob.username)
    await sync_to_async(sockets.blocks_changed)(ada.pk)
    await until_shown(a, b, c, bob.username, shown=True)
    for comm in (a, b, c):
        await comm.disconnect()


async def test_a_block_made_in_a_room_lobby_hides_the_lines_from_then_on():
    host, ada, cat = [await sync_to_async(make_user)() for _ in range(3)]
    room = await sync_to_async(rooms.do_create_room)(host, "ludo", 3, {})
    for friend in (ada, cat):
        _invite, token = await sync_to_async(rooms.do_create_invite)(room.code, host)
        await sync_to_async(rooms.do_redeem_invite)(token, friend)
    path = f"/ws/room/{room.code}/"
    h, a, c = [await connect(path, u, 'id="room-seats"') for u in (host, ada, cat)]
    assert await round_trip(a, h, c, host.username)  # not blocked yet: shown
    # Ada blocks the host while in the lobby: told on her user group, her
    # socket hides his lines from the round its reload lands in on.
    await sync_to_async(blocks.do_block)(ada, host.username)
    await sync_to_async(sockets.blocks_changed)(ada.pk)
    await until_shown(a, h, c, host.username, shown=False)
    assert not await round_trip(a, h, c, host.username)  # and it stays hidden
    for comm in (h, a, c):
        await comm.disconnect()
