"""The rematch panel over the match WebSocket, with the real Redis channel
layer (README "Playing again"): each seat gets its own panel as the offer
changes, spectators get none, and a private room's next match is named only
to the seats still in the room."""

import pytest
from asgiref.sync import sync_to_async

from games import actions
from matchmaking.models import Room
from matchmaking.rematch import actions as rematch
from matchmaking.rooms import actions as rooms
from tests.factories import make_match, make_user, play_until_every_seat_moved, start_room_match
from tests.games.test_consumers import connect

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def no_tasks(monkeypatch):
    from games import tasks
    from matchmaking import together

    monkeypatch.setattr(together, "send_task", lambda *a, **k: None)
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)


@sync_to_async
def finished_ranked():
    ada, bob = make_user(), make_user()
    match = make_match(seats=("human", "human"), users=[ada, bob], rated=True)
    play_until_every_seat_moved(match)  # so that ada's leave leaves it rated, and its rematch
    actions.leave_match(match.public_id, ada)
    return match, ada, bob


async def test_each_seat_gets_its_own_panel_and_spectators_none():
    match, ada, bob = await finished_ranked()
    spectator, a, b = await connect(match), await connect(match, ada), await connect(match, bob)
    for comm in (spectator, a, b):
        await comm.receive_from(timeout=5)  # the snapshot
    await sync_to_async(rematch.do_offer)(match.public_id, bob)
    to_ada, to_bob = await a.receive_from(timeout=5), await b.receive_from(timeout=5)
    assert to_ada.strip().startswith('<div id="rematch"') and f"{bob.username} offers a rematch" in to_ada
    assert "you accepted" in to_bob and "Accept the rematch" not in to_bob
    assert await spectator.receive_nothing(timeout=0.5)
    await sync_to_async(rematch.do_answer)(match.public_id, ada, True)
    for comm in (a, b):
        frame = await comm.receive_from(timeout=5)
        assert "The rematch has started (rated)" in frame and "data-follow" in frame
    assert await spectator.receive_nothing(timeout=0.5)
    for comm in (spectator, a, b):
        await comm.disconnect()


async def test_a_rooms_next_match_is_named_only_to_seats_still_in_the_room():
    host, ada, bob = [await sync_to_async(make_user)() for _ in range(3)]
    first = await sync_to_async(start_room_match)(host, [ada, bob])
    await sync_to_async(actions.abort_match)(first.public_id)
    code = (await sync_to_async(Room.objects.get)(match=first)).code
    await sync_to_async(rooms.do_remove_player)(code, host, bob.pk)
    await sync_to_async(rooms.do_set_computer)(code, host, 2, "easy")
    h, a, b = await connect(first, host), await connect(first, ada), await connect(first, bob)
    for comm in (h, a, b):
        await comm.receive_from(timeout=5)
    second = await sync_to_async(rooms.do_start_room)(code, host)
    for comm in (h, a):
        frame = await comm.receive_from(timeout=5)
        assert "The room's next match has started" in frame and f"/m/{second.public_id}/" in frame
    to_bob = await b.receive_from(timeout=5)
    assert second.public_id not in to_bob and code not in to_bob and "<a " not in to_bob
    for comm in (h, a, b):
        await comm.disconnect()
