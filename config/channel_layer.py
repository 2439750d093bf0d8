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
shards, their lock and client), which is why pyproject.toml pins its minor
version. ``internals_problems`` names every internal it reads that moved,
and ``group_send_many`` raises ``ChannelsRedisInternalsMoved`` on its first
call when one did; tests/games/test_channel_layer.py runs that check and
checks delivery against a real Redis.
"""

from __future__ import annotations

import asyncio

import channels_redis
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection


class ChannelsRedisInternalsMoved(RuntimeError):
    """A channels_redis internal that ``group_send_many`` reads is gone or
    changed (after an upgrade); the message names each one."""


# What group_send_many copies: how group_send finds a group's channel and its
# shard, and how a shard publishes (under its lock, on its lazily made client).
_MIRRORED = {
    (RedisPubSubLoopLayer, "group_send"): {"_get_group_channel_name", "_get_shard", "publish", "serialize"},
    (RedisSingleShardConnection, "publish"): {"_lock", "_ensure_redis", "_redis", "publish"},
}


def internals_problems(loop_layer: object | None = None) -> list[str]:
    """The channels_redis internals ``group_send_many`` reads that are
    missing or changed, one line each naming the internal (empty when all
    are as expected). Given a per-loop layer (``RedisPubSubLoopLayer``), also
    checks what it and its shards hold."""
    version = f"(channels_redis {channels_redis.__version__})"
    problems = []
    for cls, name in ((RedisPubSubChannelLayer, "_get_layer"), (RedisPubSubChannelLayer, "serialize"),
                      (RedisPubSubLoopLayer, "_get_shard"), (RedisPubSubLoopLayer, "_get_group_channel_name"),
                      (RedisSingleShardConnection, "_ensure_redis")):
        if not callable(getattr(cls, name, None)):
            problems.append(f"channels_redis.pubsub.{cls.__name__}.{name} is gone {version}")
    for (cls, name), names in _MIRRORED.items():
        func = getattr(cls, name, None)
        used = set(getattr(getattr(func, "__code__", None), "co_names", ()))
        if not names <= used:
            problems.append(f"channels_redis.pubsub.{cls.__name__}.{name} no longer uses "
                            f"{sorted(names - used)}: group_send_many copies it {version}")
    if loop_layer is not None:
        shards = getattr(loop_layer, "_shards", None)
        if not isinstance(shards, list) or not shards:
            problems.append(f"RedisPubSubLoopLayer._shards is not a list of shards {version}")
            return problems
        shard = shards[0]
        if not isinstance(getattr(shard, "_lock", None), asyncio.Lock):
            problems.append(f"RedisSingleShardConnection._lock is not an asyncio.Lock {version}")
        if not hasattr(shard, "_redis"):
            problems.append(f"RedisSingleShardConnection._redis is gone {version}")
    return problems


class PubSubChannelLayer(RedisPubSubChannelLayer):
    _checked = False

    async def group_send_many(self, messages: list[tuple[str, dict]]) -> None:
        """Send each (group, message) as ``group_send`` would, in order, with
        one Redis round trip per shard. Raises what redis-py raises (e.g.
        ``ConnectionError``); as with ``group_send``, a message no socket
        is subscribed to is dropped. Raises ``ChannelsRedisInternalsMoved``
        when an internal it reads has changed."""
        layer = self._get_layer()
        if not self._checked:
            problems = internals_problems(layer)
            if problems:
                raise ChannelsRedisInternalsMoved(
                    "config/channel_layer.py reads channels_redis internals that moved: "
                    + "; ".join(problems))
            type(self)._checked = True
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
