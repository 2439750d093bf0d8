"""The arena socket (``/ws/arena/<id>/``): the snapshot on connect, only the
rows that changed as a match ends, the "your match is ready" frame to the
paired players only, 4004 for no such arena, and nothing the client sends
acted on."""

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.utils import timezone

from arenas import actions
from arenas.models import Arena, ArenaPlayer
from config.asgi import application
from games import actions as game_actions
from games.models import Match
from tests.factories import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def _cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def _comm(arena_id, cookie=None) -> WebsocketCommunicator:
    headers = [(b"host", b"localhost:8300"), (b"origin", b"http://localhost:8300")]
    if cookie is not None:
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    return WebsocketCommunicator(application, f"/ws/arena/{arena_id}/", headers=headers)


def _arena() -> Arena:
    return Arena.objects.create(name="Duel", kind="ludo", seats=2, minutes=30,
                                starts_at=timezone.now() - timedelta(minutes=1))


def test_no_such_arena_closes_with_4004():
    async def run():
        comm = _comm(987654)
        connected, _ = await comm.connect(timeout=10)
        assert connected
        assert await comm.receive_output(timeout=10) == {"type": "websocket.close", "code": 4004}

    asyncio.run(run())


def test_snapshot_then_only_the_changed_rows_and_the_redirect_to_the_paired_only():
    arena = _arena()
    ann, bob, cat, eve = (make_user(n) for n in ("ann", "bob", "cat", "eve"))
    for u in (ann, bob, cat):
        ArenaPlayer.objects.create(arena=arena, user=u, joined_at=timezone.now(), rating=1500,
                                   free_since=timezone.now() - timedelta(seconds={"ann": 30, "bob": 20}.get(
                                       u.username, 1)))

    cookies = _cookie(eve), _cookie(ann)

    async def run():
        watcher, player = _comm(arena.pk, cookies[0]), _comm(arena.pk, cookies[1])
        for comm in (watcher, player):
            connected, _ = await comm.connect(timeout=10)
            assert connected
            header, table = await comm.receive_from(timeout=10), await comm.receive_from(timeout=10)
            assert header.startswith('<section id="arena-header"')
            assert table.startswith('<tbody id="arena-rows"') and "cat" in table
        await watcher.send_to(text_data='{"join": true}')  # ignored
        await sync_to_async(actions.pair_arena)(arena.pk)
        match = await sync_to_async(lambda: Match.objects.get(arena_match__arena=arena))()
        frames = [await player.receive_from(timeout=10) for _ in range(2)]
        assert any(f'data-href="/m/{match.public_id}/"' in f for f in frames)
        seen = await watcher.receive_from(timeout=10)
        assert "arena-redirect" not in seen
        assert "arena-row-" in seen and "cat" not in seen  # the two paired players' rows only
        await sync_to_async(game_actions.leave_match)(match.public_id, bob)
        ended = await watcher.receive_from(timeout=10)
        assert ended.count("<tr ") == 2 and ">2</strong>" in ended and "cat" not in ended
        assert await watcher.receive_nothing(timeout=0.5)
        await watcher.disconnect()
        await player.disconnect()

    asyncio.run(run())
    assert ArenaPlayer.objects.get(user=ann).points == 2
