"""The match WebSocket with the real Redis channel layer: audiences, bad
frames, refusals. Each test drives WebsocketCommunicator against the ASGI app."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games import actions
from games.frames import wire
from games.models import Match
from games.routing import websocket_urlpatterns
from tests.factories import ludo_state, make_match, make_user

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

router = URLRouter(websocket_urlpatterns)


async def connect(match, user=None, app=router, headers=None):
    comm = WebsocketCommunicator(app, f"/ws/match/{match.public_id}/", headers=headers or [])
    if user is not None:
        comm.scope["user"] = user
    else:
        from django.contrib.auth.models import AnonymousUser

        comm.scope["user"] = AnonymousUser()
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm


async def frames_until_version(comm, version, timeout=5):
    """Frames received until one carries ``version`` (inclusive)."""
    got = []
    while True:
        text = await comm.receive_from(timeout=timeout)
        got.append(text)
        if f'id="frame-version" data-version="{version}"' in text:
            return got


@sync_to_async
def two_player_match(**kw):
    match = make_match(seats=("human", "human"), state=ludo_state(), **kw)
    return match, {s.index: s.user for s in match.seats.select_related("user")}


async def test_each_audience_gets_only_its_own_frames():
    match, users = await two_player_match()
    other, _ = await two_player_match()
    spectator = await connect(match)
    seat0 = await connect(match, users[0])
    seat1 = await connect(match, users[1])
    elsewhere = await connect(other)
    for comm, has_controls, can_roll in ((spectator, False, False), (seat0, True, True),
                                         (seat1, True, False), (elsewhere, False, False)):
        snap = await comm.receive_from(timeout=5)
        assert 'data-kind="snapshot"' in snap
        assert ('id="controls"' in snap) == has_controls
        assert ("Roll the die" in snap) == can_roll

    await sync_to_async(actions.play_move)(match.public_id, users[0], "roll", match.version)
    v = match.version + 1
    spec_frames = await frames_until_version(spectator, v)
    assert all('id="controls"' not in f for f in spec_frames)
    assert any('id="dice"' in f for f in spec_frames)  # the roll's update (games/frames/wire.py)
    # Seat 0 rolled, so its controls changed: one WebSocket frame holds the
    # public frame and its controls. Seat 1's changed only if the turn passed
    # to it; else it gets the public frame alone. Nothing else is sent.
    after = await sync_to_async(Match.objects.get)(pk=match.pk)
    s0 = await frames_until_version(seat0, v)
    assert len(s0) == 1 and 'id="dice"' in s0[0] and 'id="controls"' in s0[0]
    s0 = s0[0]
    s1 = await frames_until_version(seat1, v)
    assert len(s1) == 1 and 'id="dice"' in s1[0]
    assert ('id="controls"' in s1[0]) == (after.state["turn"] == 1)
    s1 = s1[0]
    assert await seat0.receive_nothing(timeout=0.5)
    assert await seat1.receive_nothing(timeout=0.3)
    assert await elsewhere.receive_nothing(timeout=0.5)
    assert await spectator.receive_nothing(timeout=0.3)
    m = await sync_to_async(Match.objects.get)(pk=match.pk)
    assert m.seed not in s0 + s1 + "".join(spec_frames)
    for comm in (spectator, seat0, seat1, elsewhere):
        await comm.disconnect()


async def test_a_move_over_the_socket_is_applied_and_broadcast():
    match, users = await two_player_match()
    seat0 = await connect(match, users[0])
    await seat0.receive_from(timeout=5)
    await seat0.send_to(text_data=json.dumps({"move": "roll", "version": str(match.version),
                                               "HEADERS": {"HX-Request": "true"}}))
    frames = await frames_until_version(seat0, match.version + 1)
    assert frames
    m = await sync_to_async(Match.objects.get)(pk=match.pk)
    assert m.version == match.version + 1
    await seat0.disconnect()


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ("not json{", "not valid JSON"),
        ("[1, 2]", "JSON objects"),
        ('{"type": "dance"}', "Unknown message"),
        ('{"move": 5, "version": "1"}', "needs a move and a version"),
        ('{"move": "roll", "version": true}', "needs a move and a version"),
        ('{"move": "p9", "version": "1"}', None),
        ('{"move": "timeout", "version": "1"}', None),
    ],
)
async def test_bad_frames_get_an_error_frame_and_change_nothing(payload, message):
    match, users = await two_player_match()
    seat0 = await connect(match, users[0])
    await seat0.receive_from(timeout=5)
    payload = payload.replace('"version": "1"', f'"version": "{match.version}"')
    await seat0.send_to(text_data=payload)
    reply = await seat0.receive_from(timeout=5)
    assert 'id="match-error"' in reply and 'data-kind="error"' in reply
    if message:
        assert message in reply
    m = await sync_to_async(Match.objects.get)(pk=match.pk)
    assert m.version == match.version
    await seat0.disconnect()


async def test_out_of_turn_and_stale_moves_get_errors_and_the_current_position():
    match, users = await two_player_match()
    seat1 = await connect(match, users[1])
    await seat1.receive_from(timeout=5)
    await seat1.send_to(text_data=json.dumps({"move": "roll", "version": match.version}))
    assert "not your turn" in await seat1.receive_from(timeout=5)
    seat0 = await connect(match, users[0])
    await seat0.receive_from(timeout=5)
    await seat0.send_to(text_data=json.dumps({"move": "roll", "version": match.version - 1}))
    reply = await seat0.receive_from(timeout=5)
    assert "moved on" in reply
    assert 'data-kind="snapshot"' in await seat0.receive_from(timeout=5)
    await seat0.disconnect()
    await seat1.disconnect()


async def test_spectators_cannot_move():
    match, _ = await two_player_match()
    spectator = await connect(match, await sync_to_async(make_user)())
    await spectator.receive_from(timeout=5)
    await spectator.send_to(text_data=json.dumps({"move": "roll", "version": match.version}))
    assert "only its players can move" in await spectator.receive_from(timeout=5)
    await spectator.disconnect()


async def test_oversized_frames_close_with_4009():
    match, users = await two_player_match()
    seat0 = await connect(match, users[0])
    await seat0.receive_from(timeout=5)
    await seat0.send_to(text_data="x" * 10_000)
    out = await seat0.receive_output(timeout=5)
    assert out == {"type": "websocket.close", "code": 4009}


async def test_frame_size_counts_utf8_bytes_not_characters():
    match, users = await two_player_match()
    seat0 = await connect(match, users[0])
    await seat0.receive_from(timeout=5)
    await seat0.send_to(text_data=json.dumps({"type": "sync", "pad": "é" * 3000}, ensure_ascii=False))
    out = await seat0.receive_output(timeout=5)  # 3,000 characters but 6,000 bytes
    assert out == {"type": "websocket.close", "code": 4009}


async def test_flooding_closes_with_4008_once_and_drops_what_follows(caplog):
    match, users = await two_player_match()
    seat0 = await connect(match, users[0])
    await seat0.receive_from(timeout=5)
    for _ in range(40):
        await seat0.send_to(text_data='{"type": "sync"}')
    codes = []
    for _ in range(60):
        out = await seat0.receive_output(timeout=5)
        if out["type"] == "websocket.close":
            codes.append(out["code"])
            break
    assert codes == [4008]
    assert await seat0.receive_nothing(timeout=0.5)  # nothing answered after the close
    assert sum("flooding" in r.getMessage() for r in caplog.records) == 1  # logged once, not per message


async def test_private_matches_and_unknown_matches_get_the_same_refusal():
    """One answer, 4004, for a private match the user is not in and for no
    match at all (as the page's 404): a socket cannot probe which exist."""
    from django.contrib.auth.models import AnonymousUser

    match, users = await two_player_match(is_public=False)
    outsider = await connect(match, await sync_to_async(make_user)())
    assert await outsider.receive_output(timeout=5) == {"type": "websocket.close", "code": 4004}
    staff = await sync_to_async(make_user)()
    staff.is_staff = True
    for who in (AnonymousUser(), staff):  # staff too: private matches are for their members only
        comm = await connect(match, who)
        assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4004}
    member = await connect(match, users[1])
    assert 'data-kind="snapshot"' in await member.receive_from(timeout=5)
    await member.disconnect()

    class Missing:
        public_id = "nosuchmatch"

    missing = await connect(Missing())
    assert await missing.receive_output(timeout=5) == {"type": "websocket.close", "code": 4004}


async def test_foreign_origins_are_refused_by_the_full_stack():
    match, _ = await two_player_match()
    comm = WebsocketCommunicator(application, f"/ws/match/{match.public_id}/",
                                 headers=[(b"origin", b"http://evil.example"), (b"host", b"localhost")])
    connected, _ = await comm.connect(timeout=5)
    assert not connected


async def test_handshakes_without_an_origin_are_refused_by_the_full_stack():
    match, _ = await two_player_match()
    comm = WebsocketCommunicator(application, f"/ws/match/{match.public_id}/",
                                 headers=[(b"host", b"localhost")])
    connected, _ = await comm.connect(timeout=5)
    assert not connected
    ok = WebsocketCommunicator(application, f"/ws/match/{match.public_id}/",
                               headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")])
    connected, _ = await ok.connect(timeout=5)
    assert connected
    await ok.disconnect()


async def test_a_flood_on_one_match_leaves_other_matches_working():
    flooded, f_users = await two_player_match()
    other, o_users = await two_player_match()
    flooder = await connect(flooded, f_users[0])
    watcher = await connect(other, o_users[1])
    await flooder.receive_from(timeout=5)
    await watcher.receive_from(timeout=5)
    for _ in range(60):
        await flooder.send_to(text_data='{"type": "sync"}')
    while True:
        out = await flooder.receive_output(timeout=5)
        if out["type"] == "websocket.close":
            assert out["code"] == 4008
            break
    await sync_to_async(actions.play_move)(other.public_id, o_users[0], "roll", other.version)
    assert await frames_until_version(watcher, other.version + 1)
    await watcher.disconnect()


@pytest.mark.parametrize("path", ["/ws/match/%00/", "/ws/nothing/", "/ws/room/%00/", "/ws/match/UPPER/"])
async def test_sockets_to_paths_that_name_nothing_are_refused_with_4004(path):
    from config.routing import websocket_urlpatterns as all_routes

    comm = WebsocketCommunicator(URLRouter(all_routes), path)
    from django.contrib.auth.models import AnonymousUser

    comm.scope["user"] = AnonymousUser()
    connected, _ = await comm.connect(timeout=5)
    assert connected
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4004}


async def test_anonymous_sockets_are_capped_per_client_address_and_signed_in_ones_per_user():
    """README "Decisions": one over the cap closes that person's oldest
    socket with 4029; other addresses and other users are not touched."""
    from django.contrib.auth.models import AnonymousUser
    from django.test import override_settings

    from core.sockets import caps as sockets

    match, users = await two_player_match()

    async def watcher(address, user=None):
        comm = WebsocketCommunicator(router, f"/ws/match/{match.public_id}/")
        comm.scope["user"] = user or AnonymousUser()
        comm.scope["client"] = (address, 50000)
        connected, _ = await comm.connect(timeout=5)
        assert connected
        assert 'data-kind="snapshot"' in await comm.receive_from(timeout=5)
        return comm

    with override_settings(PARLOUR_WS_PER_ADDRESS=3, PARLOUR_WS_PER_USER=2):
        crowd = [await watcher("203.0.113.5") for _ in range(3)]
        elsewhere = await watcher("198.51.100.7")
        player = [await watcher("203.0.113.5", users[0]) for _ in range(2)]  # counted as the user
        for comm in (*crowd, elsewhere, *player):
            assert await comm.receive_nothing(timeout=0.2)
        newest = await watcher("203.0.113.5")
        assert await crowd[0].receive_output(timeout=5) == {"type": "websocket.close", "code": 4029}
        for comm in (*crowd[1:], elsewhere, *player, newest):
            assert await comm.receive_nothing(timeout=0.2)
        assert await sockets.slots.count("a:203.0.113.5") == 3
        third = await watcher("198.51.100.9", users[0])
        assert await player[0].receive_output(timeout=5) == {"type": "websocket.close", "code": 4029}
        await crowd[0].disconnect()
        await player[0].disconnect()
        for comm in (*crowd[1:], newest):
            await comm.disconnect()
        assert await sockets.slots.count("a:203.0.113.5") == 0  # closing gives the slot back
        for comm in (elsewhere, player[1], third):
            await comm.disconnect()


async def test_open_sockets_stay_counted_and_a_vanished_process_s_stop_counting(settings):
    """The process refreshes the slots of every socket it holds open (one
    keeper per event loop, core.sockets.caps.SocketSlots); an entry nobody
    refreshes (its process died) is dropped after three periods."""
    import asyncio

    from core.sockets import caps as sockets

    settings.PARLOUR_WS_SLOT_SECONDS = 0.3  # entries kept 1 s unless refreshed
    match, users = await two_player_match()
    owner = f"u:{users[0].pk}"
    async def counted(user):
        comm = await connect(match, user)
        # The handshake is accepted before the access check; the snapshot comes
        # once the socket holds its slot.
        assert 'data-kind="snapshot"' in await comm.receive_from(timeout=5)
        return comm

    comms = [await counted(users[0]) for _ in range(2)]
    comms.append(await counted(users[1]))
    await sockets.slots.admit(owner, "a-socket-of-a-dead-process")
    assert await sockets.slots.count(owner) == 3
    await asyncio.sleep(1.8)
    comms.append(await counted(users[0]))  # an admission drops stale entries
    assert await sockets.slots.count(owner) == 3  # both old sockets kept, the dead one gone
    assert await sockets.slots.count(f"u:{users[1].pk}") == 1
    for comm in comms:
        await comm.disconnect()
    assert await sockets.slots.count(owner) == 0


async def test_an_idle_socket_gets_a_heartbeat_each_period_and_a_busy_one_none(settings):
    settings.PARLOUR_HEARTBEAT_SECONDS = 0.3
    match, users = await two_player_match()
    comm = await connect(match, users[0])
    assert 'data-kind="snapshot"' in await comm.receive_from(timeout=5)
    assert await comm.receive_nothing(timeout=0.2)  # not before a period has passed
    assert await comm.receive_from(timeout=2) == wire.HEARTBEAT_FRAME
    assert await comm.receive_from(timeout=2) == wire.HEARTBEAT_FRAME
    # A frame resets the count: the next heartbeat comes a whole period after it.
    await sync_to_async(actions.play_move)(match.public_id, users[0], "roll", match.version)
    await frames_until_version(comm, match.version + 1)
    assert await comm.receive_nothing(timeout=0.2)
    await comm.disconnect()


def test_the_live_benchmark_knows_the_heartbeat_frame():
    from benchmarks import live_client

    assert live_client.HEARTBEAT == wire.HEARTBEAT_FRAME
