"""The channel layer: channels_redis's Redis pub/sub layer, plus one method,
a process-local fan-out and a shard that survives Redis restarts.

``group_send_many(messages)`` publishes several group messages in one round
trip to Redis (a pipeline per shard) instead of one round trip each. A move
sends its public frame and one or two seats' frames at once (games.push);
one at a time, each waited for Redis's reply while holding the shard's lock,
and the publishes were about a tenth of a move's server time under load
(docs/benchmarks.md). Delivery is unchanged: every message is a PUBLISH to
the group's channel, in the order given, so subscribers see the same
messages in the same order as from ``group_send`` called in turn.

Process-local fan-out (``add_receiver``): upstream puts a group message,
as it came from Redis, in the queue of each of the group's channels in the
process, and each socket's consumer wakes, reads (deserializes) its copy and
dispatches it. A socket that registered a receiver (the match and user
sockets: core.sockets.consumer.SocketConsumer.take) is handed the message itself, read
once for all the group's sockets, and its handler writes the frame at once,
in the same turn of the event loop; what a receiver does not take goes to
the queue as before. Each process still subscribes once per group and
Redis still carries one message per group, so nothing changes across
processes.

It reaches into channels_redis's pub/sub internals (the per-loop layer, its
shards, their lock and client), which is why pyproject.toml pins its minor
version. ``internals_problems`` names every internal it reads that moved,
and ``group_send_many`` raises ``ChannelsRedisInternalsMoved`` on its first
call when one did; tests/core/test_channel_layer.py runs that check and
checks delivery against a real Redis.

``ResilientShard`` replaces channels_redis's per-host shard. Upstream, the
shard's receive task and a socket's SUBSCRIBE or UNSUBSCRIBE share one
pub/sub connection; when Redis dies, each finds it dead and reconnects it at
the same time ("readuntil() called while another coroutine is already
waiting"), after which the process could stay subscribed to nothing while
it believed it was subscribed (moves saved, heard by no socket of that web
process until it restarted), and a handshake could wait on the shard's lock
until daphne dropped it. Here the pub/sub connection never reconnects by
itself: the first failure marks the shard stale, and one rebuild, under the
shard's lock with the receive task stopped, makes a new connection and
subscribes it to every channel and group the process holds now (README
"Decisions", "Redis restarts"). tests/resilience/test_faults.py kills Redis
right after a socket's disconnect and checks that handshakes open and moves
are heard.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Protocol

import channels_redis
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _close_redis, _wrap_close, create_pool, decode_hosts
from redis import asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from core import request_ids

logger = logging.getLogger(__name__)


class ChannelsRedisInternalsMoved(RuntimeError):
    """A channels_redis internal that ``group_send_many`` reads is gone or
    changed (after an upgrade); the message names each one."""


# What group_send_many copies: how group_send finds a group's channel and its
# shard, and how a shard publishes (under its lock, on its lazily made client).
_MIRRORED = {
    (RedisPubSubLoopLayer, "group_send"): {"_get_group_channel_name", "_get_shard", "publish", "serialize"},
    (RedisSingleShardConnection, "publish"): {"_lock", "_ensure_redis", "_redis", "publish"},
    # What LoopLayer and PubSubChannelLayer._get_layer copy.
    (RedisPubSubLoopLayer, "__init__"): {"_shards", "RedisSingleShardConnection", "decode_hosts"},
    (RedisPubSubChannelLayer, "_get_layer"): {"_layers", "RedisPubSubLoopLayer", "_wrap_close"},
    # What ResilientShard relies on: the layer's own channels and groups, and
    # the receive path that hands a message to them.
    (RedisPubSubLoopLayer, "group_add"): {"groups", "_get_shard", "subscribe"},
    (RedisPubSubLoopLayer, "_subscribe_to_channel"): {"channels", "_get_shard", "subscribe"},
    (RedisSingleShardConnection, "_receive_message"): {"channel_layer", "channels", "groups"},
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
    init_names = set(RedisSingleShardConnection.__init__.__code__.co_names)
    for name in ("host", "channel_layer", "_subscribed_to", "_lock", "_redis", "_pubsub", "_receive_task"):
        if name not in init_names:
            problems.append(f"RedisSingleShardConnection.__init__ no longer sets {name}: "
                            f"ResilientShard relies on it {version}")
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


#: What a pub/sub connection raises when Redis is gone or restarting.
REDIS_FAILURES = (RedisError, OSError)

#: The message every consumer of a web process gets after its shard's
#: subscription was rebuilt (``ResilientShard._rebuild``): group messages
#: published while Redis was away or before the rebuild were lost (Redis
#: pub/sub keeps nothing), so the consumer catches up
#: (core.sockets.consumer.SocketConsumer.layer_resubscribed).
RESUBSCRIBED = {"type": "layer.resubscribed"}


class Receiver(Protocol):
    """What takes a channel's group messages itself (``add_receiver``):
    core.sockets.consumer.SocketConsumer."""

    def take(self, event: dict) -> bool: ...


class ResilientShard(RedisSingleShardConnection):
    """channels_redis's connection to one Redis host, whose pub/sub
    connection is rebuilt, whole, after Redis fails (see the module's
    docstring). Publishing is unchanged: its own pooled connections retry a
    command once on a new connection (config/settings.py,
    ``channel_layer_host``).

    ``subscribe`` raises what redis-py raises (``ConnectionError``) only when
    Redis is still unreachable after one rebuild; ``unsubscribe`` never
    raises for a failure of Redis (or of redis-py after one): the channel is
    forgotten at once, and a rebuild subscribes only to what the process
    still holds. While the shard is stale, its receive task tries a rebuild
    every 0.1 to 2 seconds."""

    _stale = False

    def _ensure_redis(self) -> None:
        if self._redis is None:
            self._redis = aioredis.Redis(connection_pool=create_pool(self.host))
            # The pub/sub connection does not retry: a failure surfaces to
            # whichever coroutine met it, and only _rebuild reconnects.
            self._pubsub = aioredis.Redis(connection_pool=create_pool(
                {**self.host, "retry": Retry(NoBackoff(), 0)})).pubsub()

    def _needed(self) -> list[str]:
        """Every channel and group channel of this process on this shard."""
        layer = self.channel_layer
        return [name for name in (*layer.channels, *layer.groups) if layer._get_shard(name) is self]

    async def _close(self) -> None:
        redis, pubsub = self._redis, self._pubsub
        self._redis = None
        self._pubsub = None
        self._subscribed_to = set()
        try:
            if pubsub is not None:
                await pubsub.aclose()
                await pubsub.connection_pool.disconnect()
            if redis is not None:
                await _close_redis(redis)
        except REDIS_FAILURES:
            pass  # the connections are dead already

    async def _rebuild(self) -> None:
        """Under self._lock: a new connection subscribed to what the process
        holds. Raises a redis-py error (the shard stays stale) when Redis is
        still unreachable."""
        await self._close()
        self._stale = True
        self._ensure_redis()
        needed = self._needed()
        if needed:
            await self._pubsub.subscribe(*needed)
        self._subscribed_to = set(needed)
        self._stale = False
        self._tell_consumers()
        logger.warning("channel layer: pub/sub connection rebuilt, %d channel(s) subscribed", len(needed))

    def _tell_consumers(self) -> None:
        """Put RESUBSCRIBED in the queue of every channel of this process
        that listens through this shard, on its own name or a group's."""
        layer = self.channel_layer
        told = {name for name in layer.channels if layer._get_shard(name) is self}
        for group, members in layer.groups.items():
            if layer._get_shard(group) is self:
                told |= members
        data = layer.channel_layer.serialize(RESUBSCRIBED)
        for name in told:
            queue = layer.channels.get(name)
            if queue is not None:
                queue.put_nowait(data)

    async def subscribe(self, channel: str) -> None:
        async with self._lock:
            self._ensure_receiver()
            if self._stale:
                await self._rebuild()  # subscribes to channel too: the layer holds it already
                return
            if channel in self._subscribed_to:
                return
            self._ensure_redis()
            try:
                await self._pubsub.subscribe(channel)
            except REDIS_FAILURES:
                self._stale = True
                await self._rebuild()
                return
            self._subscribed_to.add(channel)

    async def unsubscribe(self, channel: str) -> None:
        async with self._lock:
            if channel not in self._subscribed_to:
                return
            self._subscribed_to.discard(channel)
            if self._stale or self._pubsub is None:
                return
            try:
                await self._pubsub.unsubscribe(channel)
            except Exception:  # a Redis failure, or redis-py's state after one
                self._stale = True  # the receive task rebuilds without it

    async def flush(self) -> None:
        async with self._lock:
            if self._receive_task is not None:
                self._receive_task.cancel()
                try:
                    await self._receive_task
                except asyncio.CancelledError:
                    pass
                self._receive_task = None
            await self._close()
            self._stale = False

    def _receive_message(self, message) -> None:
        """Hand a message from Redis to this process's channels: a channel's
        own message to its queue; a group's to each member, straight to its
        receiver (``LoopLayer.receivers``) when it takes it, else to the
        member's queue as upstream does. A group message is read
        (deserialized) once, whatever its number of receivers."""
        if message is None:
            return
        name, data = message["channel"], message["data"]
        if isinstance(name, bytes):
            name = name.decode()
        layer = self.channel_layer
        queue = layer.channels.get(name)
        if queue is not None:
            queue.put_nowait(data)
            return
        members = layer.groups.get(name)
        if not members:
            return
        receivers = layer.receivers
        event = None
        for channel_name in tuple(members):
            queue = layer.channels.get(channel_name)
            if queue is None:
                continue
            receiver = receivers.get(channel_name)
            if receiver is not None:
                if event is None:
                    event = layer.channel_layer.deserialize(data)
                if receiver.take(event):
                    continue
            queue.put_nowait(data)

    async def _do_receiving(self) -> None:
        # The process's reader, started by the first socket to subscribe: its
        # lines, and the group frames' tasks it starts, are no socket's.
        request_ids.detach()
        delay = 0.1
        while True:
            if not self._stale:
                delay = 0.1  # a SUBSCRIBE may have rebuilt the connection meanwhile
            if self._stale:
                try:
                    async with self._lock:
                        if self._stale:
                            await self._rebuild()
                    delay = 0.1
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # Redis still unreachable
                    logger.info("channel layer: rebuild failed (%r); next try in %.1f s", exc, delay)
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 2.0)
                    continue
            pubsub = self._pubsub
            try:
                if pubsub is not None and pubsub.subscribed:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a Redis failure, or redis-py's state after one
                if pubsub is self._pubsub and not self._stale:
                    logger.warning("channel layer: pub/sub connection lost (%r); rebuilding", exc)
                    self._stale = True
                # else a SUBSCRIBE rebuilt the connection under this read


class LoopLayer(RedisPubSubLoopLayer):
    """channels_redis's per-event-loop layer with ResilientShard shards."""

    def __init__(self, hosts=None, **kwargs) -> None:
        super().__init__(hosts=hosts, **kwargs)
        self._shards = [ResilientShard(host, self) for host in decode_hosts(hosts)]
        #: channel name -> the object that takes that channel's group
        #: messages itself (``PubSubChannelLayer.add_receiver``); weak, so
        #: a consumer that ended without its disconnect handler is not kept.
        self.receivers: weakref.WeakValueDictionary[str, Receiver] = weakref.WeakValueDictionary()

    async def _subscribe_to_channel(self, channel: str) -> None:
        """Hold ``channel`` and subscribe to it, or raise what the shard
        raises (Redis unreachable) and hold nothing: upstream keeps the
        channel of a socket whose handshake failed here, and every later
        rebuild subscribed to it again."""
        try:
            await super()._subscribe_to_channel(channel)
        except BaseException:
            self.channels.pop(channel, None)
            raise


class PubSubChannelLayer(RedisPubSubChannelLayer):
    _checked = False

    def add_receiver(self, channel_name: str, receiver: Receiver) -> None:
        """From now on, offer each group message for ``channel_name`` to
        ``receiver.take(event)`` (the event read once for all receivers of
        the group, to be read and not changed) before queueing it for the
        channel; ``take`` returns True when it took the event. Call from the
        event loop that receives for the channel; ``discard_receiver`` when
        it leaves."""
        self._get_layer().receivers[channel_name] = receiver

    def discard_receiver(self, channel_name: str) -> None:
        self._get_layer().receivers.pop(channel_name, None)

    def _get_layer(self) -> LoopLayer:
        loop = asyncio.get_running_loop()
        try:
            return self._layers[loop]
        except KeyError:
            layer = self._layers[loop] = LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
            return layer

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
                    "core/channel_layer.py reads channels_redis internals that moved: "
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
