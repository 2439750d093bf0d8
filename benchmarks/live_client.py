"""The benchmark's players: real ``websockets`` clients, one per seat.

A *table* is one match seen from the client side: four sockets (one per
seat) on ``/ws/match/<key>/``, each sending the seat's ``sessionid`` cookie
and an ``Origin`` that matches the host. Every frame a socket receives carries
``id="frame-version" data-version="N"``; a seat's controls frame lists its
legal moves as ``name="move" value="..."`` when it is the seat's turn. The
seat to move sends ``{"move": ..., "version": ...}``; the round trip of that
move is the time from the send until every socket of the table has received a
frame of the version after it.

With ``user_sockets`` each seat also holds the site-wide user socket,
``/ws/notify/``, watching "Your matches" (README "Notifications"), whose
frames are counted by type apart from the round trips.

The same code drives Parlour's servers (daphne or uvicorn, one process or
several: seat i of a match connects to the (i mod N)-th port) and the bare
ceiling server (``live_ceiling.py``), which speaks the same frames. Nothing
here imports Django.
"""

from __future__ import annotations

import asyncio
import collections
import json
import random
import re
import statistics
import time
from dataclasses import dataclass, field

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus, WebSocketException

FRAME_VERSION = re.compile(r'id="frame-version" data-version="(\d+)"(?: data-kind="(\w+)")?')
MOVE_INPUT = re.compile(r'name="move" value="([^"]+)"')
TO_MOVE = re.compile(r'data-to-move="(\d+)"')  # the ceiling's frames name the seat to move
FINISHED = 'class="result"'  # the status line of a finished or aborted match
# games.frames.wire.HEARTBEAT_FRAME (tests/games/test_consumers.py compares them): an idle socket's
# "still here" frame, every PARLOUR_HEARTBEAT_SECONDS; it carries no version.
HEARTBEAT = '<div id="heartbeat" hidden></div>'
# The user socket's JSON frames (notifications/consumers.py) begin with their type.
USER_FRAME_TYPE = re.compile(r'^\{"type":"(\w+)"')


@dataclass
class Target:
    """A match to play: its key (public id or room) and one cookie value per seat."""

    key: str
    sessions: list[str]


@dataclass
class Stats:
    """What happened during one measurement window (or between windows)."""

    started: float = field(default_factory=time.perf_counter)
    ended: float | None = None
    cpu_started: float = field(default_factory=time.process_time)
    cpu_ended: float | None = None
    sent: int = 0
    rtts: list[float] = field(default_factory=list)  # seconds
    errors: collections.Counter = field(default_factory=collections.Counter)
    missed_slots: int = 0  # paced sends with no match ready to move
    replaced: int = 0  # finished matches replaced by new ones
    user_frames: collections.Counter = field(default_factory=collections.Counter)  # user socket: type -> n
    user_bytes: int = 0  # bytes of those frames

    @property
    def seconds(self) -> float:
        return (self.ended or time.perf_counter()) - self.started

    @property
    def moves_per_second(self) -> float:
        return len(self.rtts) / self.seconds if self.seconds else 0.0

    @property
    def driver_cpu_percent(self) -> float:
        cpu = (self.cpu_ended or time.process_time()) - self.cpu_started
        return 100 * cpu / self.seconds if self.seconds else 0.0

    def percentile_ms(self, p: float) -> float:
        """Nearest-rank percentile of the round trips, in milliseconds (nan if none)."""
        if not self.rtts:
            return float("nan")
        ordered = sorted(self.rtts)
        rank = max(0, min(len(ordered) - 1, int(round(p / 100 * len(ordered) + 0.5)) - 1))
        return ordered[rank] * 1000


class Table:
    """One match's four sockets and what the client knows of it."""

    def __init__(self, bench: Bench, target: Target):
        self.bench = bench
        self.target = target
        n = len(target.sessions)
        self.sockets: list = [None] * n
        self.seen = [0] * n  # highest frame version each socket has received
        self.offer: tuple[int, int, list[str]] | None = None  # (seat, version, legal moves)
        self.pending: tuple[int, float, Stats] | None = None  # (target version, sent at, window)
        self.queued = False
        self.finished = False
        self.closing = False
        self.last_progress = time.perf_counter()
        self.opened = asyncio.Event()
        self.tasks = [asyncio.create_task(self._socket(seat)) for seat in range(n)]
        self.user_sockets: list = [None] * n
        if bench.user_sockets:  # each seat's page also holds the site-wide user socket
            self.tasks += [asyncio.create_task(self._user_socket(seat)) for seat in range(n)]

    # -- sockets -----------------------------------------------------------

    async def _socket(self, seat: int) -> None:
        bench = self.bench
        port = bench.ports[seat % len(bench.ports)]
        url = f"ws://{bench.host}:{port}/ws/match/{self.target.key}/"
        headers = {"Cookie": f"sessionid={self.target.sessions[seat]}"}
        attempts = 0
        while not self.closing and not bench.stopping:
            try:
                async with bench.connect_slots:
                    ws = await connect(
                        url, origin=f"http://{bench.host}:{port}", additional_headers=headers,
                        compression=None, proxy=None, open_timeout=30, max_size=2**22, ping_interval=None,
                    )
                self.sockets[seat] = ws
                async for message in ws:
                    await self.on_frame(seat, message)
                if not (self.closing or bench.stopping):
                    bench.stats.errors[f"closed by server ({ws.close_code})"] += 1
            except ConnectionClosed as e:
                if not (self.closing or bench.stopping):
                    bench.stats.errors[f"closed unexpectedly ({e.rcvd.code if e.rcvd else 'no code'})"] += 1
            except (InvalidStatus, WebSocketException, OSError, TimeoutError) as e:
                bench.stats.errors[f"connect failed ({type(e).__name__})"] += 1
            finally:
                self.sockets[seat] = None
            attempts += 1
            if attempts > 5 or self.closing or bench.stopping:
                return
            await asyncio.sleep(0.5)  # reconnect: the server sends a snapshot

    async def _user_socket(self, seat: int) -> None:
        """The seat's user socket, ``/ws/notify/``, watching "Your matches" as
        the home and play pages do: its frames are counted by type and size,
        outside the round trips (Parlour's servers only; the ceiling has none)."""
        bench = self.bench
        port = bench.ports[seat % len(bench.ports)]
        headers = {"Cookie": f"sessionid={self.target.sessions[seat]}"}
        try:
            async with bench.connect_slots:
                ws = await connect(
                    f"ws://{bench.host}:{port}/ws/notify/", origin=f"http://{bench.host}:{port}",
                    additional_headers=headers, compression=None, proxy=None, open_timeout=30,
                    max_size=2**22, ping_interval=None,
                )
            self.user_sockets[seat] = ws
            await ws.send('{"type": "watch", "panels": ["your-matches"]}')
            async for message in ws:
                kind = USER_FRAME_TYPE.search(message)
                bench.note_user_frame(kind.group(1) if kind else "?", len(message))
            if not (self.closing or bench.stopping):
                bench.stats.errors[f"user socket closed by server ({ws.close_code})"] += 1
        except ConnectionClosed as e:
            if not (self.closing or bench.stopping):
                bench.stats.errors[f"user socket closed ({e.rcvd.code if e.rcvd else 'no code'})"] += 1
        except (InvalidStatus, WebSocketException, OSError, TimeoutError) as e:
            bench.stats.errors[f"user socket connect failed ({type(e).__name__})"] += 1
        finally:
            self.user_sockets[seat] = None

    async def close(self) -> None:
        self.closing = True
        for ws in self.user_sockets:
            if ws is not None:
                await ws.close()
        for ws in self.sockets:
            if ws is not None:
                await ws.close()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    # -- frames ------------------------------------------------------------

    async def on_frame(self, seat: int, html: str) -> None:
        bench = self.bench
        if html == HEARTBEAT:
            bench.heartbeats += 1
            return
        m = FRAME_VERSION.search(html)
        if m is None:
            bench.stats.errors["frame without a version"] += 1
            return
        version, kind = int(m.group(1)), m.group(2) or "update"
        self.last_progress = time.perf_counter()
        if kind == "error":
            bench.stats.errors["error frame"] += 1
            return
        if kind != "snapshot":
            bench.note_frame_size(len(html), 'id="controls"' in html)
        if version > self.seen[seat]:
            self.seen[seat] = version
        if FINISHED in html and not self.finished:
            self.finished = True
            bench.replace(self)
            return
        if 'name="move"' in html:
            to_move = TO_MOVE.search(html)
            if to_move is None or int(to_move.group(1)) == seat:
                if version >= max(self.seen) and (self.offer is None or version >= self.offer[1]):
                    self.offer = (seat, version, MOVE_INPUT.findall(html))
        if not self.opened.is_set() and min(self.seen) > 0:
            self.opened.set()
        pending = self.pending
        if pending is not None and min(self.seen) >= pending[0]:
            self.pending = None
            if pending[2] is bench.stats:
                bench.stats.rtts.append(time.perf_counter() - pending[1])
        await self.maybe_ready()

    async def maybe_ready(self) -> None:
        """Move now (saturation) or queue for the pacer, if a seat may move."""
        if self.pending is not None or self.offer is None or self.queued or self.finished or self.closing:
            return
        if self.bench.mode == "saturate":
            await self.send_move()
        elif self.bench.mode == "paced":
            self.queued = True
            self.bench.ready.append(self)

    async def send_move(self) -> None:
        self.queued = False
        if self.offer is None or self.pending is not None or self.finished or self.closing:
            return
        seat, version, moves = self.offer
        ws = self.sockets[seat]
        if ws is None:
            return
        self.offer = None
        stats = self.bench.stats
        self.pending = (version + 1, time.perf_counter(), stats)
        stats.sent += 1
        try:
            await ws.send(json.dumps({"move": self.bench.rng.choice(moves), "version": str(version)}))
        except ConnectionClosed:
            stats.errors["send on a closed socket"] += 1
            self.pending = None

    async def resync(self) -> None:
        """Ask every socket for the current position (after a lost round trip)."""
        self.pending = None
        self.offer = None
        for ws in self.sockets:
            if ws is not None:
                try:
                    await ws.send('{"type": "sync"}')
                except ConnectionClosed:
                    pass


class Bench:
    """All tables of one server layout (``port``: one port, or a list with one
    per server process), the pacer, and the current window's stats.

    ``mode``: "idle" (nobody moves), "paced" (the pacer releases one ready
    match per slot at ``rate`` moves/s) or "saturate" (every match moves as
    soon as it may). ``new_target``: coroutine function making a fresh match
    to replace a finished one.
    """

    def __init__(self, host: str, port: int | list[int], new_target=None, seed: int = 1,
                 timeout: float = 10.0, max_connecting: int = 50, user_sockets: bool = False):
        # Several ports: several server processes; seat i connects to port i mod n,
        # so every match has players on each process (like players behind a proxy).
        self.ports = [port] if isinstance(port, int) else list(port)
        self.host = host
        self.new_target = new_target
        self.timeout = timeout
        self.rng = random.Random(seed)
        self.tables: list[Table] = []
        self.ready: collections.deque[Table] = collections.deque()
        self.mode = "idle"
        self.stopping = False
        self.stats = Stats()
        self.connect_slots = asyncio.Semaphore(max_connecting)
        self.frame_sizes: dict[str, list[int]] = {"public": [], "seat": []}  # kind -> each frame's bytes
        self.heartbeats = 0  # heartbeat frames received (games/consumers.py)
        self.user_sockets = user_sockets  # each seat also opens /ws/notify/ (Parlour only)
        self.user_frames: collections.Counter = collections.Counter()  # type -> frames
        self.user_frame_bytes: collections.Counter = collections.Counter()  # type -> bytes
        self._background: set[asyncio.Task] = set()
        self._watchdog = asyncio.create_task(self._watch())

    def note_frame_size(self, size: int, is_seat: bool) -> None:
        self.frame_sizes["seat" if is_seat else "public"].append(size)

    def note_user_frame(self, kind: str, size: int) -> None:
        self.user_frames[kind] += 1
        self.user_frame_bytes[kind] += size
        self.stats.user_frames[kind] += 1
        self.stats.user_bytes += size

    def open_user_sockets(self) -> int:
        return sum(ws is not None for t in self.tables for ws in t.user_sockets)

    def mean_frame_bytes(self, kind: str) -> int:
        sizes = self.frame_sizes[kind]
        return sum(sizes) // len(sizes) if sizes else 0

    def median_frame_bytes(self, kind: str) -> int:
        """The median size of the update frames of ``kind`` ("public" or "seat"), bytes (0: none)."""
        return int(statistics.median(self.frame_sizes[kind])) if self.frame_sizes[kind] else 0

    async def open_tables(self, targets: list[Target], timeout: float = 120) -> None:
        """Connect every seat of ``targets`` and wait until each socket has its first frame."""
        tables = [Table(self, t) for t in targets]
        self.tables.extend(tables)
        await asyncio.wait_for(asyncio.gather(*(t.opened.wait() for t in tables)), timeout)

    def open_sockets(self) -> int:
        return sum(ws is not None for t in self.tables for ws in t.sockets)

    def replace(self, table: Table) -> None:
        """A finished match: close its sockets and open a new match in its place."""
        task = asyncio.create_task(self._replace(table))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _replace(self, table: Table) -> None:
        if table in self.tables:
            self.tables.remove(table)
        await table.close()
        if self.new_target is None or self.stopping:
            return
        stats = self.stats
        target = await self.new_target()
        new = Table(self, target)
        self.tables.append(new)
        stats.replaced += 1
        await new.opened.wait()
        await new.maybe_ready()

    # -- windows -------------------------------------------------------------

    async def set_mode(self, mode: str) -> None:
        self.mode = mode
        self.ready.clear()
        for t in self.tables:
            t.queued = False
        for t in list(self.tables):
            await t.maybe_ready()

    def begin_window(self) -> Stats:
        self.stats = Stats()
        return self.stats

    def end_window(self) -> Stats:
        stats = self.stats
        stats.ended = time.perf_counter()
        stats.cpu_ended = time.process_time()
        self.stats = Stats()
        return stats

    async def pace(self, rate: float, seconds: float) -> None:
        """Release one ready match per slot, ``rate`` slots per second, for ``seconds``."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        slots = 0
        while (elapsed := loop.time() - start) < seconds:
            due = int(elapsed * rate) - slots
            for _ in range(due):
                slots += 1
                if self.ready:
                    await self.ready.popleft().send_move()
                else:
                    self.stats.missed_slots += 1
            await asyncio.sleep(max(0.0, start + (slots + 1) / rate - loop.time()))

    async def drain(self, timeout: float = 10) -> None:
        """Stop moving and wait (up to ``timeout`` s) for round trips in flight."""
        await self.set_mode("idle")
        deadline = time.perf_counter() + timeout
        while any(t.pending for t in self.tables) and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)

    async def _watch(self) -> None:
        """Count round trips lost for ``timeout`` s as errors and resync those tables."""
        while not self.stopping:
            await asyncio.sleep(1)
            now = time.perf_counter()
            for t in list(self.tables):
                if t.closing or t.finished:
                    continue
                if t.pending is not None and now - t.pending[1] > self.timeout:
                    self.stats.errors["round trip timed out"] += 1
                    await t.resync()
                elif (t.pending is None and t.offer is None and t.opened.is_set()
                      and now - t.last_progress > self.timeout):
                    self.stats.errors["no seat to move (resynced)"] += 1
                    t.last_progress = now
                    await t.resync()

    async def close(self) -> None:
        self.stopping = True
        self._watchdog.cancel()
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*(t.close() for t in self.tables), return_exceptions=True)
        self.tables.clear()
