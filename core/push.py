"""Sending pushes to the channel layer: the one helper every app's push
module sends its (group, event) pairs through, after commit."""

from __future__ import annotations

from channels.layers import get_channel_layer


async def send_all(messages: list[tuple[str, dict]]) -> None:
    """Send each (group name, channel-layer event dict) of ``messages`` to its
    group, in order: in one Redis round trip per shard with the project's
    layer (core/channel_layer.py's ``group_send_many``), else one
    ``group_send`` each, awaited one after the other. Nothing for an empty
    list. Raises what the layer raises (e.g. redis-py's ``ConnectionError``)."""
    if not messages:
        return
    layer = get_channel_layer()
    send_many = getattr(layer, "group_send_many", None)
    if send_many is not None:
        await send_many(messages)
        return
    for group, event in messages:
        await layer.group_send(group, event)
