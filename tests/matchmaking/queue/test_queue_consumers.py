"""The queue WebSocket with the real Redis channel layer: live numbers,
the redirect when paired, leaving by closing the page, refusals."""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.urls import path

from matchmaking import tasks
from matchmaking.models import QueueEntry
from matchmaking.queue import actions
from matchmaking.queue.consumers import QueueConsumer
from tests.factories import make_user

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

router = URLRouter([path("ws/queue/", QueueConsumer.as_asgi())])


@pytest.fixture(autouse=True)
def no_match_tasks(monkeypatch):
    from games import tasks as game_tasks

    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(game_tasks, name), "apply_async", lambda *a, **k: None)


async def connect(user):
    comm = WebsocketCommunicator(router, "/ws/queue/")
    comm.scope["user"] = user
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm


async def test_a_waiting_player_sees_their_numbers_and_leaves_by_closing_the_page():
    user = await sync_to_async(make_user)()
    await sync_to_async(actions.join_queue)(user, "ludo", 2)
    comm = await connect(user)
    first = await comm.receive_from(timeout=5)
    assert 'id="queue-status"' in first and "±100" in first
    assert "<strong>1</strong> player waiting" in first
    await comm.disconnect()
    assert not await sync_to_async(QueueEntry.objects.filter(user=user).exists)()


async def test_pairing_sends_every_waiting_browser_to_the_match_and_the_wave_updates():
    a, b, c = [await sync_to_async(make_user)() for _ in range(3)]
    await sync_to_async(actions.join_queue)(a, "ludo", 2)
    await sync_to_async(actions.join_queue)(c, "ludo", 3)
    comm_a, comm_c = await connect(a), await connect(c)
    await comm_a.receive_from(timeout=5)
    await comm_c.receive_from(timeout=5)
    await sync_to_async(tasks.queue_wave)()
    wave = await comm_a.receive_from(timeout=5)
    assert "queue-count" in wave or "queue-status" in wave
    entry = await sync_to_async(actions.join_queue)(b, "ludo", 2)
    public_id = await sync_to_async(lambda: entry.match.public_id)()
    seen = ""
    while f'data-href="/m/{public_id}/"' not in seen:
        seen = await comm_a.receive_from(timeout=5)
    # The other queue's player only ever hears about their own queue.
    while not await comm_c.receive_nothing(timeout=0.3):
        assert public_id not in await comm_c.receive_from(timeout=1)
    await comm_a.disconnect()
    await comm_c.disconnect()
    # Closing after pairing leaves the paired entry alone.
    assert await sync_to_async(QueueEntry.objects.filter(user=a, match__isnull=False).exists)()


async def test_signed_out_sockets_are_refused():
    comm = WebsocketCommunicator(router, "/ws/queue/")
    comm.scope["user"] = AnonymousUser()
    await comm.connect(timeout=5)
    output = await comm.receive_output(timeout=5)
    assert output == {"type": "websocket.close", "code": 4001}


async def test_a_player_not_waiting_is_told_so_and_the_socket_closes():
    user = await sync_to_async(make_user)()
    comm = await connect(user)
    assert "not in a queue any more" in await comm.receive_from(timeout=5)
    output = await comm.receive_output(timeout=5)
    assert output["type"] == "websocket.close"


async def test_a_failed_heartbeat_is_tried_again_so_the_entry_never_lapses(monkeypatch, settings):
    """The database away for a beat (a restart): the next beat marks the entry
    seen again. Before, the first failure ended the heartbeat task unlogged and
    the sweep dropped a player whose page was still open."""
    from django.db import OperationalError

    settings.PARLOUR_QUEUE_HEARTBEAT_SECONDS = 0.05
    user = await sync_to_async(make_user)()
    await sync_to_async(actions.join_queue)(user, "ludo", 2)
    real, calls = actions.mark_seen, []

    def mark_seen(who):
        calls.append(who)
        if len(calls) in (2, 3):  # the first beats after the snapshot's own call
            raise OperationalError("the database system is shutting down")
        return real(who)

    monkeypatch.setattr(actions, "mark_seen", mark_seen)
    comm = await connect(user)
    await comm.receive_from(timeout=5)
    entry = await sync_to_async(QueueEntry.objects.get)(user=user)
    for _ in range(100):
        await asyncio.sleep(0.05)
        if len(calls) >= 6:
            break
    assert len(calls) >= 6  # beats went on after the two that failed
    later = await sync_to_async(QueueEntry.objects.get)(user=user)
    assert later.seen_at > entry.seen_at
    await comm.disconnect()


async def test_a_dropped_socket_keeps_the_entry_unpaired_until_a_socket_is_back():
    """README "Ranked play": a drop (1006) is not leaving. The entry stays,
    pairing skips it while away, and it is paired once a socket is back; a
    clean close (1001, the page unloading) leaves at once."""
    a, b, c = [await sync_to_async(make_user)() for _ in range(3)]
    await sync_to_async(actions.join_queue)(a, "ludo", 2)
    comm = await connect(a)
    await comm.receive_from(timeout=5)
    await comm.disconnect(code=1006)
    entry = await sync_to_async(QueueEntry.objects.get)(user=a)
    assert entry.away_since is not None and entry.match_id is None
    assert (await sync_to_async(actions.join_queue)(b, "ludo", 2)).match_id is None  # not paired while away
    back = await connect(a)
    seen = ""
    while "data-href=" not in seen:
        seen = await back.receive_from(timeout=5)
    entry = await sync_to_async(QueueEntry.objects.select_related("match").get)(user=a)
    assert entry.match is not None and f'data-href="/m/{entry.match.public_id}/"' in seen
    await back.disconnect()

    await sync_to_async(actions.join_queue)(c, "ludo", 3)
    leaving = await connect(c)
    await leaving.receive_from(timeout=5)
    await leaving.disconnect(code=1001)
    assert not await sync_to_async(QueueEntry.objects.filter(user=c).exists)()

