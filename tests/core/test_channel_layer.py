"""core.channel_layer: several group messages in one Redis round trip,
delivered as group_send would deliver them (real Redis, the test layer)."""

import asyncio

import pytest
from channels.layers import get_channel_layer

from core.channel_layer import PubSubChannelLayer

pytestmark = pytest.mark.asyncio


async def test_group_send_many_delivers_every_message_to_its_group_in_order():
    layer = get_channel_layer()
    assert isinstance(layer, PubSubChannelLayer)
    a1, a2, b = [await layer.new_channel() for _ in range(3)]
    for channel, group in ((a1, "many.a"), (a2, "many.a"), (b, "many.b")):
        await layer.group_add(group, channel)
    try:
        await layer.group_send_many([
            ("many.a", {"type": "t", "n": 1}),
            ("many.b", {"type": "t", "n": 2}),
            ("many.nobody", {"type": "t", "n": 0}),  # no subscriber: dropped, no error
            ("many.a", {"type": "t", "n": 3}),
        ])

        async def received(channel, count):
            return [(await asyncio.wait_for(layer.receive(channel), 5))["n"] for _ in range(count)]

        assert await received(a1, 2) == [1, 3]
        assert await received(a2, 2) == [1, 3]
        assert await received(b, 1) == [2]
        with pytest.raises(TimeoutError):  # nothing else arrived
            await asyncio.wait_for(layer.receive(b), 0.3)
    finally:
        for channel, group in ((a1, "many.a"), (a2, "many.a"), (b, "many.b")):
            await layer.group_discard(group, channel)


async def test_the_channels_redis_internals_group_send_many_reads_are_where_they_were():
    """channels_redis is pinned to one minor (pyproject.toml) because
    group_send_many copies its group_send; an upgrade that moves what it reads
    fails here, naming the internal."""
    from core.channel_layer import internals_problems

    layer = get_channel_layer()
    problems = internals_problems(layer._get_layer())
    assert not problems, "core/channel_layer.py reads channels_redis internals that moved:\n" + "\n".join(
        problems)


class _Taker:
    """A receiver (core.channel_layer.Receiver) that takes events of type "direct"."""

    def __init__(self):
        self.taken = []

    def take(self, event):
        if event["type"] != "direct":
            return False
        self.taken.append(event)
        return True


async def _until(predicate, seconds=5.0):
    deadline = asyncio.get_running_loop().time() + seconds
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "not within the time"
        await asyncio.sleep(0.01)


async def test_a_receiver_takes_its_group_events_read_once_and_leaves_the_rest_queued():
    layer = get_channel_layer()
    a, b, c = [await layer.new_channel() for _ in range(3)]
    takers = {a: _Taker(), b: _Taker()}
    for channel in (a, b, c):
        await layer.group_add("direct.g", channel)
    for channel, taker in takers.items():
        layer.add_receiver(channel, taker)
    try:
        await layer.group_send_many([("direct.g", {"type": "direct", "n": 1}),
                                     ("direct.g", {"type": "queued", "n": 2}),
                                     ("direct.g", {"type": "direct", "n": 3})])
        await _until(lambda: len(takers[a].taken) == 2 and len(takers[b].taken) == 2)
        assert [e["n"] for e in takers[a].taken] == [1, 3]
        assert takers[a].taken[0] is takers[b].taken[0]  # one read for the whole group
        # What a receiver does not take, and everything for a channel without
        # one, waits in the channel's queue, in order.
        assert (await asyncio.wait_for(layer.receive(a), 5))["n"] == 2
        assert [(await asyncio.wait_for(layer.receive(c), 5))["n"] for _ in range(3)] == [1, 2, 3]
        layer.discard_receiver(a)
        await layer.group_send("direct.g", {"type": "direct", "n": 4})
        assert (await asyncio.wait_for(layer.receive(a), 5))["n"] == 4  # queued again
        await _until(lambda: len(takers[b].taken) == 3)
    finally:
        for channel in (a, b, c):
            layer.discard_receiver(channel)
            await layer.group_discard("direct.g", channel)


def _Socket(gate=None):  # noqa: N802 - read as a class in the tests
    """A ParlourConsumer's direct delivery without a socket: ``sent`` lists the
    frames it would send, in order; each waits for ``gate`` when given."""
    from core.sockets.consumer import SocketConsumer as ParlourConsumer

    class Probe(ParlourConsumer):
        direct_types = frozenset({"frame"})

        async def frame(self, event):
            if gate is not None:
                await gate.wait()
            self.sent.append(event["n"])

    probe = Probe()
    probe.scope = {"path": "/ws/probe/"}
    probe.sent = []
    return probe


async def test_direct_events_wait_while_a_socket_sends_its_view_and_follow_it_in_order():
    socket = _Socket()
    assert socket.take({"type": "frame", "n": 1}) is True
    assert socket.sent == [1]  # handled at once, in the caller's turn of the loop
    assert socket.take({"type": "other", "n": 0}) is False  # left to the socket's queue
    async with socket.holding():
        socket.take({"type": "frame", "n": 3})
        async with socket.holding():  # nested: still held until the outer block ends
            socket.sent.append("snapshot at 2")
            await asyncio.sleep(0)
            socket.take({"type": "frame", "n": 4})
        assert socket.sent == [1, "snapshot at 2"]
    assert socket.sent == [1, "snapshot at 2", 3, 4]
    socket.take({"type": "frame", "n": 5})
    assert socket.sent == [1, "snapshot at 2", 3, 4, 5]


async def test_a_socket_whose_frame_waits_holds_up_no_other_socket():
    gate = asyncio.Event()
    slow, fast = _Socket(gate), _Socket()
    slow.take({"type": "frame", "n": 1})
    fast.take({"type": "frame", "n": 1})
    assert slow.sent == [] and fast.sent == [1]
    gate.set()
    await _until(lambda: slow.sent == [1])
