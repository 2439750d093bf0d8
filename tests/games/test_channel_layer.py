"""config.channel_layer: several group messages in one Redis round trip,
delivered as group_send would deliver them (real Redis, the test layer)."""

import asyncio

import pytest
from channels.layers import get_channel_layer

from config.channel_layer import PubSubChannelLayer

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
    from config.channel_layer import internals_problems

    layer = get_channel_layer()
    problems = internals_problems(layer._get_layer())
    assert not problems, "config/channel_layer.py reads channels_redis internals that moved:\n" + "\n".join(
        problems)
