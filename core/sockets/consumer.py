"""What every WebSocket consumer shares, whoever it serves (the match, queue,
room, arena and user sockets build on it through ``accounts.sockets.ParlourConsumer``,
which adds the user's groups, sign-in and sessions): the limits and the
reading of a received frame, the per-socket message budget, the socket's
slot under the cap on sockets per person, the per-person share of Channels'
database thread, and group frames handed over as they arrive.

Limits (``SocketConsumer.websocket_receive``): every received frame passes
``admit`` (a frame over ``PARLOUR_WS_MAX_FRAME`` bytes closes the socket with
4009, one over the message budget with 4008: core/sockets/limits.py) before
any consumer code sees it. A consumer handles frames in ``receive`` (or
``on_<type>``); defining ``websocket_receive``, ``dispatch`` or ``admit`` is
refused when the class is made (``SocketConsumer.__init_subclass__``), so none
can skip the limits.

Sockets per person (core/sockets/caps.py): a socket takes its slot once it
is let in (``SocketConsumer.take_slot``); one over its person's cap closes
their oldest with CLOSE_TOO_MANY_SOCKETS (4029).

Group frames (``SocketConsumer.take``): the events a consumer lists in
``direct_types`` (a match's frames, a user socket's rows and notes) are
handed to it by the channel layer as they arrive from Redis, read once per
process, and written at once, without a trip through the socket's queue
(core/channel_layer.py). While a consumer reads and sends a view (a
snapshot, a panel: ``holding``) they wait, and follow it in order.

Database calls (``SocketConsumer.db``, core/sockets/db_calls.py): a consumer's
calls on Channels' one database thread (access checks, snapshots) go through
a per-person gate of ``PARLOUR_WS_DB_CALLS_PER_USER`` at once in each
process, and run once more on a fresh connection when the database ended its
connection (``core.database.retry_if_connection_lost``); lost twice, the
socket gets an error frame or closes with CLOSE_TRY_AGAIN (4013).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

from aiolimiter import AsyncLimiter
from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from core import database, request_ids
from core.sockets.caps import slots, socket_owner
from core.sockets.close_codes import CLOSE_FLOODING, CLOSE_TOO_LARGE, CLOSE_TOO_MANY_SOCKETS, CLOSE_TRY_AGAIN
from core.sockets.db_calls import Gate, gate_of, retried
from core.sockets.limits import message_budget

log = logging.getLogger(__name__)

#: The event that closes an evicted socket (sent to its channel name).
EVICTED_EVENT = "sockets.evicted"


#: The direct handlers still waiting (``SocketConsumer.take``): the loop
#: keeps only weak references to tasks.
_direct_tasks: set[asyncio.Task] = set()


def _start(coro) -> None:
    """Run ``coro`` now, up to its first wait, as a task (asyncio's eager
    tasks); keep it until it ends if it waits."""
    task = asyncio.eager_task_factory(asyncio.get_running_loop(), coro)
    if not task.done():
        _direct_tasks.add(task)
        task.add_done_callback(_direct_tasks.discard)



class SocketConsumer(AsyncWebsocketConsumer):
    """Base of every Parlour WebSocket consumer (config/routing.py; through
    ``accounts.sockets.ParlourConsumer``): the groups
    a socket joined, left again on disconnect, the guard every received
    frame passes (``admit``, from ``websocket_receive``), and the one reading
    of a frame (``receive``).

    A received frame is read once, here: it must pass ``admit`` (size and
    message budget, else the socket closes), then be JSON, then a JSON
    object, then name a type (``message_type``) that the consumer has a
    handler for, ``async def on_<type>(self, data)`` (``data`` the parsed
    object). A frame that fails any of these changes nothing and gets
    ``send_error`` with the matching ``*_message`` below; a consumer
    declares its handlers, its ``send_error`` and, where it words them
    differently, those messages. A consumer that reads nothing overrides
    ``receive`` to ignore frames: they have passed ``admit`` by then.

    Raises TypeError when a subclass defines one of ``SEALED``, the methods
    a frame passes before ``receive`` (module docstring, "Limits")."""

    #: Methods no subclass may define: they hold the limits every frame meets.
    SEALED = ("websocket_receive", "dispatch", "admit")

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in SocketConsumer.SEALED:
            if name in vars(cls):
                raise TypeError(f"{cls.__qualname__} defines {name}, which every socket's frames pass "
                                "through unchanged (core/sockets/consumer.py, Limits); "
                                "override receive instead")

    #: What a refused frame is told (``receive``): not JSON; JSON but not
    #: an object; an object of no type this consumer handles. Lazy: in the
    #: language the consumer's ``send_error`` renders in.
    not_json_message = _("That message is not valid JSON.")
    not_object_message = _("Messages are JSON objects.")
    unknown_message = _("Unknown message.")

    groups_joined: list[str] | tuple = ()
    #: Group event types whose handlers only send a frame (no database, no
    #: waiting on anything else): the channel layer hands them to ``take``
    #: as they arrive from Redis, not through the socket's queue.
    direct_types: frozenset[str] = frozenset()
    _held: list[dict] | None = None  # direct events waiting for a view (``holding``)
    _receiving = False  # registered with the channel layer (``join``)
    budget: AsyncLimiter | None = None
    refused = False  # closed for a bad frame: frames still in flight are dropped
    owner: str | None = None  # socket_owner(), once the socket holds a slot
    _db_gate: Gate | None = None

    async def send(self, text_data=None, bytes_data=None, close=False):
        """Send a frame; one whose client has already gone (it left the page
        while its snapshot was being read) is dropped, not raised: daphne's
        protocol raises ``Disconnected``, which would end the consumer with
        an "Exception inside application" error before its disconnect
        handler runs."""
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            log.debug("ws %s: frame dropped, the client has gone", self.scope.get("path", "?"))

    async def db(self, fn, *args):
        """``fn(*args)`` on Channels' database thread (``database_sync_to_async``),
        at most PARLOUR_WS_DB_CALLS_PER_USER of this person's at once in
        this process (module docstring). Returns what ``fn`` returns. ``fn``
        runs once more on a fresh connection when the database ended its
        connection before a commit (``core.database.retry_if_connection_lost``);
        raises ``core.database.ConnectionLost`` when that did not help, which
        ``dispatch`` turns into an error frame or a close with 4013."""
        if self._db_gate is None:
            self._db_gate = gate_of(socket_owner(self.scope))
        async with self._db_gate.semaphore:
            return await database_sync_to_async(retried)(fn, *args)

    async def take_slot(self) -> None:
        """Count this socket against its person's cap (core/sockets/caps.py),
        closing their oldest sockets beyond it, and keep the count fresh
        while it is open. Call once the socket is accepted and allowed in."""
        self.owner = socket_owner(self.scope)
        for channel in await slots.admit(self.owner, self.channel_name):
            log.info("ws: %s over the socket cap: closing its oldest socket", self.owner)
            try:
                await self.channel_layer.send(channel, {"type": EVICTED_EVENT})
            except Exception as e:  # noqa: BLE001 - a lost eviction only leaves one socket over
                log.warning("ws: could not close an evicted socket: %s", e)
        slots.hold(self.owner, self.channel_name)

    async def layer_resubscribed(self, event):
        """The channel layer rebuilt this process's Redis subscription after
        Redis failed (core/channel_layer.py, RESUBSCRIBED): group messages
        published meanwhile never arrived, so the socket catches up
        (``resync``)."""
        await self.resync()

    async def resync(self) -> None:
        """Bring the page up to date after group messages were lost. The
        match socket sends a snapshot; the room and queue sockets do nothing
        yet (their pages catch up with their next frame)."""

    async def sockets_evicted(self, event):
        log.info("ws %s: closed with %s (over the socket cap)", self.scope.get("path", "?"),
                 CLOSE_TOO_MANY_SOCKETS)
        await self.close(CLOSE_TOO_MANY_SOCKETS)

    async def dispatch(self, message):
        """Call the message's handler, without channels' per-message hop to
        its database thread to close old connections (AsyncConsumer.dispatch
        makes one for every frame received and every group message). These
        consumers reach the database only through ``database_sync_to_async``,
        which closes old connections in the thread that uses them, before
        and after each call; the extra hop cost every move a thread hand-off."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except database.ConnectionLost as e:
            # The database ended this socket's connection, twice over (README
            # "Decisions"): say so to a socket that asked, else close with
            # 4013 ("try again later"); the page reconnects and catches up.
            log.warning("ws %s: %s while handling %s", self.scope.get("path", "?"), e, message["type"])
            if message["type"] == "websocket.receive" and not self.refused:
                try:
                    await self.send_error(self.words(e.message))
                    return
                except database.ConnectionLost:
                    pass
            await self.close(CLOSE_TRY_AGAIN)

    async def websocket_receive(self, message):
        """A frame arrived: ``admit`` it (limits: size and message budget),
        then hand it to ``receive``. Sealed (class docstring)."""
        text_data, bytes_data = message.get("text"), message.get("bytes")
        if not await self.admit(text_data, bytes_data):
            return
        if bytes_data is not None:
            await self.receive(bytes_data=bytes_data)
        else:
            await self.receive(text_data=text_data)

    async def receive(self, text_data=None, bytes_data=None):
        """Read a received frame (admitted) once and hand it to its
        ``on_<type>`` handler, or refuse it with ``send_error`` (class
        docstring)."""
        try:
            data = json.loads(text_data if text_data is not None else bytes_data)
        except (TypeError, ValueError):
            await self.send_error(self.words(self.not_json_message))
            return
        if not isinstance(data, dict):
            await self.send_error(self.words(self.not_object_message))
            return
        kind = self.message_type(data)
        handler = getattr(self, f"on_{kind}", None) if isinstance(kind, str) else None
        if handler is None:
            await self.send_error(self.words(self.unknown_message))
            return
        await handler(data)

    def words(self, text) -> str:
        """``text`` (a lazy translation, or a str) as this socket reads it:
        here in the active language; ``accounts.sockets.ParlourConsumer``
        says it in the socket's own."""
        return str(text)

    def message_type(self, data: dict):
        """The type a received JSON object names: its ``"type"`` field (any
        JSON value; only a string that names a handler is handled)."""
        return data.get("type")

    async def send_error(self, message: str) -> None:
        """Tell this socket that its frame was refused, in the page's own
        error frame (each consumer renders its own)."""
        raise NotImplementedError


    async def join(self, *groups: str) -> None:
        """Add this socket to ``groups`` (left again in ``disconnect``)."""
        if self.direct_types and not self._receiving:
            add_receiver = getattr(self.channel_layer, "add_receiver", None)
            if add_receiver is not None:
                add_receiver(self.channel_name, self)
                self._receiving = True
        self.groups_joined = [*self.groups_joined, *groups]
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)

    def take(self, event: dict) -> bool:
        """The channel layer's offer of a group event as it arrives
        (core.channel_layer ``add_receiver``): one of ``direct_types`` is
        taken, True, and its handler runs at once, up to its first wait, in
        a task of its own (so a frame is written in the order the events
        came, and a client that reads slowly holds up only its own socket);
        or held while the socket reads and sends a view (``holding``).
        Any other type is left to the socket's queue (False). The handlers
        of ``direct_types`` write their frame before their first wait (the
        servers' sends write, then wait for the buffer to drain), so a
        socket's frames go out in the order their events came.

        One read of an event serves all the sockets of a group in this
        process: no per-socket queue, task switch or deserializing."""
        if event["type"] not in self.direct_types:
            return False
        if self._held is not None:
            self._held.append(event)
        else:
            _start(self._handle_direct(event))
        return True

    async def _handle_direct(self, event: dict) -> None:
        # Runs in the channel layer's task, not in this socket's context: its
        # lines name the socket's request id themselves (core/request_ids.py).
        try:
            await getattr(self, get_handler_name(event))(event)
        except OSError as e:  # uvicorn's ClientDisconnected: the client went; its disconnect cleans up
            log.debug("ws %s: %s not sent: %r", self.scope.get("path", "?"), event["type"], e,
                      extra={"request_id": self.scope.get("request_id", request_ids.NONE)})
        except Exception:  # a bug in a handler: logged, and the other sockets still get theirs
            log.exception("ws %s: %s handler failed", self.scope.get("path", "?"), event["type"],
                          extra={"request_id": self.scope.get("request_id", request_ids.NONE)})

    @contextlib.asynccontextmanager
    async def holding(self):
        """Inside this block, direct group events for this socket wait and
        are handled, in order, after it: for reading and sending a view
        (a snapshot, a panel) that group frames must not overtake. Nests."""
        if self._held is not None:
            yield
            return
        self._held = []
        try:
            yield
        finally:
            try:
                while self._held:
                    await self._handle_direct(self._held.pop(0))
            finally:
                self._held = None

    async def disconnect(self, code):
        if self._receiving:
            self.channel_layer.discard_receiver(self.channel_name)
            self._receiving = False
        if self.owner is not None:
            slots.let_go(self.channel_name)
            await slots.release(self.owner, self.channel_name)
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def admit(self, text_data: str | None, bytes_data: bytes | None) -> bool:
        """True when a received frame may be handled. Else the socket closes
        (once) with CLOSE_TOO_LARGE (4009) for a frame over
        ``settings.PARLOUR_WS_MAX_FRAME`` bytes (text counted in UTF-8 bytes,
        not characters) or CLOSE_FLOODING (4008) when its ``message_budget()``
        is spent, and the refusal is logged; frames arriving after that are
        dropped unlogged. An admitted frame takes one message from the budget."""
        if self.refused:
            return False
        if self.budget is None:
            self.budget = message_budget()  # made inside the event loop
        if text_data is not None:
            size = len(text_data.encode("utf-8", "surrogatepass"))
        else:
            size = len(bytes_data or b"")
        code = CLOSE_TOO_LARGE if size > settings.PARLOUR_WS_MAX_FRAME else (
            None if self.budget.has_capacity() else CLOSE_FLOODING)
        if code is not None:
            self.refused = True
            log.warning("ws %s: closed with %s (%s)", self.scope.get("path", "?"), code,
                        "frame too large" if code == CLOSE_TOO_LARGE else "flooding")
            await self.close(code)
            return False
        await self.budget.acquire()  # returns at once: there was capacity
        return True
