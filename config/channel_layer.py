"""The channel layer: channels_redis's Redis pub/sub layer, plus one method.

``group_send_many(messages)`` publishes several group messages in one round
trip to Redis (a pipeline per shard) instead of one round trip each. A move
sends its public frame and one or two seats' frames at once (games.push);
one at a time, each waited for Redis's reply while holding the shard's lock,
and the publishes were about a tenth of a move's server time under load
(docs/benchmarks.md). Delivery is unchanged: every message is a PUBLISH to
the group's channel, in the order given, so subscribers see the same
messages in the same order as from ``group_send`` called in turn.

It reaches into channels_redis's pub/sub internals (the per-loop layer, its
shards, their lock and client), which is why the version is pinned below 5
in pyproject.toml; tests/games/test_channel_layer.py checks delivery against
a real Redis.
"""

from __future__ import annotations

from channels_redis.pubsub import RedisPubSubChannelLayer


class PubSubChannelLayer(RedisPubSubChannelLayer):
    async def group_send_many(self, messages: list[tuple[str, dict]]) -> None:
        """Send each (group, message) as ``group_send`` would, in order, with
        one Redis round trip per shard. Raises what redis-py raises (e.g.
        ``ConnectionError``); as with ``group_send``, a message no socket
        is subscribed to is dropped."""
        layer = self._get_layer()
        by_shard: dict = {}
        for group, message in messages:
            channel = layer._get_group_channel_name(group)
            by_shard.setdefault(layer._get_shard(channel), []).append((channel, self.serialize(message)))
        for shard, items in by_shard.items():
            async with shard._lock:
                shard._ensure_redis()
                async with shard._redis.pipeline(transaction=False) as pipe:
                    for channel, data in items:
                        pipe.publish(channel, data)
                    await pipe.execute()
