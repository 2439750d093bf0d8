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
from tests.factories import every_seat_moves, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def _cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def _comm(arena_id, cookie=None, query="") -> WebsocketCommunicator:
    headers = [(b"host", b"localhost:8300"), (b"origin", b"http://localhost:8300")]
    if cookie is not None:
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    return WebsocketCommunicator(application, f"/ws/arena/{arena_id}/{query}", headers=headers)


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
        await sync_to_async(every_seat_moves)(match)
        await sync_to_async(game_actions.leave_match)(match.public_id, bob)
        ended = await watcher.receive_from(timeout=10)
        assert ended.count("<tr ") == 2 and ">2</strong>" in ended and "cat" not in ended
        assert await watcher.receive_nothing(timeout=0.5)
        await watcher.disconnect()
        await player.disconnect()

    asyncio.run(run())
    assert ArenaPlayer.objects.get(user=ann).points == 2


def _frames_until(comm, predicate, limit=6):
    """Frames received until one meets ``predicate`` (that one last)."""
    async def run():
        got = []
        for _ in range(limit):
            got.append(await comm.receive_from(timeout=10))
            if predicate(got[-1]):
                return got
        raise AssertionError(f"no such frame in {got}")
    return run()


def test_the_own_block_follows_entry_and_phase_and_a_later_page_gets_no_table():
    arena = _arena()
    ann = make_user("ann")
    ArenaPlayer.objects.create(arena=arena, user=ann, joined_at=timezone.now(), rating=1500)
    cookie = _cookie(ann)

    async def run():
        first = _comm(arena.pk, cookie)
        later = _comm(arena.pk, cookie, "?page=2")
        for comm in (first, later):
            connected, _ = await comm.connect(timeout=10)
            assert connected
        head = await first.receive_from(timeout=10)
        assert head.startswith('<section id="arena-header"') and 'id="arena-me"' in head and ">Pause<" in head
        assert 'id="arena-foot"' in head
        assert (await first.receive_from(timeout=10)).startswith('<tbody id="arena-rows"')
        head = await later.receive_from(timeout=10)
        assert 'id="arena-me"' in head and 'id="arena-foot"' not in head
        assert await later.receive_nothing(timeout=0.3)  # no table for a page past the first

        await sync_to_async(actions.pause)(ann, arena.pk)
        got = await _frames_until(first, lambda f: 'id="arena-me"' in f)
        assert got[0].startswith('<tr id="arena-row-') and ">Resume<" in got[-1] and ">Pause<" not in got[-1]
        assert 'hx-swap-oob="true"' in got[-1] and "csrfmiddlewaretoken" not in got[-1]  # the page adds it
        (me,) = [await later.receive_from(timeout=10)]
        assert me.startswith('<div id="arena-me"') and ">Resume<" in me
        assert await later.receive_nothing(timeout=0.3)

        # The arena closes (no match running: it is finished at once): every
        # socket gets the header with its own block, the buttons gone.
        await sync_to_async(Arena.objects.filter(pk=arena.pk).update)(
            starts_at=timezone.now() - timedelta(minutes=40))
        await sync_to_async(actions.close_due)()
        for comm in (first, later):
            frame = await comm.receive_from(timeout=10)
            assert frame.startswith('<section id="arena-header"') and "Finished" in frame
            assert "You scored <strong>0</strong> points." in frame and "<button" not in frame
        # Someone signed out watching gets the header and an empty own block.
        watcher = _comm(arena.pk)
        connected, _ = await watcher.connect(timeout=10)
        assert connected
        head = await watcher.receive_from(timeout=10)
        assert 'id="arena-me"' in head and "Log in" not in head and "<button" not in head
        for comm in (first, later, watcher):
            await comm.disconnect()

    asyncio.run(run())


def test_the_own_row_below_the_first_page_is_sent_again_when_players_pass_it(monkeypatch):
    from accounts.models import User
    from arenas import consumers, push

    monkeypatch.setattr(consumers, "OWN_ROW_SECONDS", 0.05)
    arena = _arena()
    users = User.objects.bulk_create(User(username=f"p{i:03d}", email=f"p{i}@example.com", password="!")
                                     for i in range(1, 151))
    now = timezone.now()
    ArenaPlayer.objects.bulk_create(
        ArenaPlayer(arena=arena, user=u, joined_at=now, rating=1500, points=151 - i, reached_at=now)
        for i, u in enumerate(users, 1))
    me = ArenaPlayer.objects.get(user=users[139])
    last = ArenaPlayer.objects.get(user=users[149])
    cookie = _cookie(users[139])

    async def run():
        comm = _comm(arena.pk, cookie)
        connected, _ = await comm.connect(timeout=10)
        assert connected
        await comm.receive_from(timeout=10)
        table = await comm.receive_from(timeout=10)
        assert table.count("<tr id=") == 101 and f'id="arena-row-{me.pk}"' in table
        assert 'data-pos="140"' in table and 'class="arena-gap"' in table
        # The last player jumps to the top: their row (place 1), then the
        # viewer's own row again, one place lower.
        await sync_to_async(ArenaPlayer.objects.filter(pk=last.pk).update)(points=500)
        await sync_to_async(push.standings_rows)(arena.pk, [last.pk])
        moved = await comm.receive_from(timeout=10)
        assert f'id="arena-row-{last.pk}"' in moved and 'data-pos="1"' in moved
        own = await comm.receive_from(timeout=10)
        assert f'id="arena-row-{me.pk}"' in own and 'data-pos="141"' in own and '<td class="rank">141<' in own
        # A row pushed behind the viewer (the player just below them): their
        # place is looked up again, unchanged, so nothing more is sent.
        below = await sync_to_async(lambda: ArenaPlayer.objects.get(user=users[141]).pk)()
        await sync_to_async(push.standings_rows)(arena.pk, [below])
        assert f'id="arena-row-{below}"' in await comm.receive_from(timeout=10)
        assert await comm.receive_nothing(timeout=0.3)
        await comm.disconnect()

    asyncio.run(run())


def test_the_wave_tells_an_open_page_once_the_arena_starts():
    arena = Arena.objects.create(name="Soon", kind="ludo", seats=2, minutes=30,
                                 starts_at=timezone.now() + timedelta(seconds=2))

    async def run():
        comm = _comm(arena.pk)
        connected, _ = await comm.connect(timeout=10)
        assert connected
        header = await comm.receive_from(timeout=10)
        assert 'data-phase="upcoming"' in header
        await comm.receive_from(timeout=10)  # the table
        assert await sync_to_async(actions.open_due)() == []  # not yet
        await asyncio.sleep(max(0.0, (arena.starts_at - timezone.now()).total_seconds()) + 0.1)
        assert await sync_to_async(actions.open_due)() == [arena.pk]
        assert await sync_to_async(actions.open_due)() == []  # once
        frames = await _frames_until(comm, lambda f: "arena-phase" in f)
        assert 'data-phase="running"' in frames[-1]
        await comm.disconnect()

    asyncio.run(run())
