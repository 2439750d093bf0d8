"""Bots on the bot and board API under load: many bots, each streaming one
match over HTTP (NDJSON) and moving by POST, on ONE daphne process.

Run: ``.venv/bin/python -m benchmarks.api_bots [--quick] [--bots 200]
[--rate R] [--paced-seconds S] [--saturate-seconds S] [--database sqlite|postgres]
[--beside-live]`` (``make bench-api``).

It starts its own services as ``make bench-live`` does (benchmarks/live.py,
live_services.py): the embedded Redis on ``var/bench/redis.sock``, a fresh
database (SQLite under ``var/bench/``, or PostgreSQL: ``$DATABASE_URL`` or a
private server), migrated, and one daphne process with production settings,
pinned to the first core as production pins it (``--no-pin``: not).

``--bots`` bot accounts (each with a token of its own, made through
accounts.tokens in this process) play ``--bots``/2 two-seat Ludo matches, two
bots a match, made through games.actions with long turns (no deadline passes
and no Celery worker runs: no seat is a computer). Each bot is one asyncio
client (benchmarks/api_client.py, the standard library only): it holds its
match's stream (``GET /api/match/<id>/stream``) open, and when a state line
names its legal moves it POSTs one (``POST /api/match/<id>/move``, its own
keep-alive connection) with the line's version. A match that ends is
replaced by a new one for the same two bots.

Two windows, as bench-live's: (a) ``--rate`` moves/s offered in total, paced
by one scheduler; (b) saturation: every bot moves as soon as it may.
Measured in each:

- moves/s: moves the server accepted (a POST answered 200);
- round trip: from sending a POST until the state line of the version it
  made has reached both bots' streams of the match (p50, p99), as
  bench-live's runs from sending a move until every socket of its match has
  its frame; and the POST itself (sent -> answered);
- server CPU per move: the daphne process's CPU time (utime + stime from
  /proc) over the window, divided by the moves; Redis's beside it;
- memory per open stream: the server's RSS with every stream open and idle,
  minus before they opened, divided by the streams.

``--beside-live`` then runs bench-live's WebSocket measurement in the same
sitting under the same load (``live_argv``: four-seat matches of logged-in
users with as many match sockets as there are bots, no user sockets, the same
rate, windows, database and pinning) and prints its CPU per move, moves/s and
round trips beside these; without it, the command is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import shutil
import sys
import time
from dataclasses import dataclass, field

from benchmarks import live_services as services
from benchmarks.api_client import Connection, RateLimited, open_stream
from benchmarks.live_django import setup_django

#: The longest live time control: no deadline passes during a run (see live_django.py).
TURN_SECONDS = 120


# -- the Django side: bot accounts, tokens, matches ------------------------------------


def make_bots(count: int, prefix: str) -> list[tuple[int, str]]:
    """``count`` bot accounts with a read+play token each: [(user id, token text)]."""
    from django.contrib.auth.hashers import make_password

    from accounts import tokens
    from accounts.models import User

    unusable = make_password(None)
    User.objects.bulk_create(
        User(username=f"{prefix}{i}", email=f"{prefix}{i}@bench.invalid", password=unusable, is_bot=True)
        for i in range(count)
    )
    bots = []
    for user in User.objects.filter(username__startswith=prefix).order_by("pk"):
        _, text = tokens.make_token(user, "bench", ["read", "play"])
        bots.append((user.pk, text))
    return bots


def make_match(user_ids: list[int]) -> str:
    """A started two-seat Ludo match of the bots ``user_ids``; its id."""
    from accounts.models import User
    from games import actions

    users = list(User.objects.filter(pk__in=user_ids))
    users.sort(key=lambda u: user_ids.index(u.pk))
    match = actions.create_match("ludo", [actions.SeatSpec(user=u) for u in users], turn_seconds=TURN_SECONDS)
    actions.start_match(match.public_id)
    return match.public_id


# -- the clients -----------------------------------------------------------------------


@dataclass
class Window:
    """What happened in one window: round trips and POST times (seconds)."""

    started: float = field(default_factory=time.monotonic)
    ended: float | None = None
    moves: int = 0
    round_trips: list[float] = field(default_factory=list)
    posts: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1

    @property
    def seconds(self) -> float:
        return (self.ended or time.monotonic()) - self.started


def percentile_ms(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Table:
    """One match and its two bots; replaced by a new match when it ends."""

    def __init__(self, bench: Bench, bots: list[tuple[int, str]], match_id: str):
        self.bench, self.bots, self.match_id = bench, bots, match_id
        #: version a POST makes -> (sent at, bots whose stream has shown it)
        self.pending: dict[int, tuple[float, set[int]]] = {}
        self.last_seen = [-1] * len(bots)  # each bot's latest version seen on its stream
        self.tasks: list[asyncio.Task] = []
        self.ended = asyncio.Event()
        self.opened = 0

    def start(self) -> None:
        self.tasks = [asyncio.create_task(self.run_bot(i)) for i in range(len(self.bots))]

    def seen(self, bot: int, version: int) -> None:
        """Bot ``bot``'s stream showed ``version``: the moves that made it or
        an earlier one have reached it; a move that has reached both is a round trip."""
        now = time.monotonic()
        self.last_seen[bot] = max(self.last_seen[bot], version)
        for made in [v for v in self.pending if v <= version]:
            sent, who = self.pending[made]
            who.add(bot)
            if len(who) == len(self.bots):
                del self.pending[made]
                self.bench.window.round_trips.append(now - sent)

    async def run_bot(self, i: int) -> None:
        bench, (_, token) = self.bench, self.bots[i]
        post = Connection(bench.host, bench.port, token)
        try:
            path = f"/api/match/{self.match_id}/stream"
            async with open_stream(bench.host, bench.port, path, token) as lines:
                self.opened += 1
                async for line in lines:
                    if line.get("type") == "end":
                        self.ended.set()
                        return
                    if line.get("type") != "state":
                        continue
                    self.seen(i, line["version"])
                    if line.get("legal_moves"):
                        await self.move(post, line)
        except asyncio.CancelledError:
            raise
        except RateLimited as limited:  # the stream was refused: wait as told, then a new match
            bench.window.error("rate_limited")
            await asyncio.sleep(limited.seconds)
            self.ended.set()
        except Exception as e:  # noqa: BLE001 - counted; the table goes on with a new match
            bench.window.error(type(e).__name__)
            self.ended.set()
        finally:
            await post.close()

    async def move(self, post: Connection, line: dict) -> None:
        """POST one of ``line``'s legal moves with its version. The change it
        makes is the next version (one accepted action bumps it by one); its
        round trip runs from the POST's sending until both streams show it (a
        stream's line may come before the POST's answer). A 429 is waited out
        and the move sent again; a stale version is left for the next line."""
        bench = self.bench
        move = bench.rng_choice(line["legal_moves"])
        made = line["version"] + 1
        while True:
            await bench.permit()
            sent = time.monotonic()
            self.pending[made] = (sent, set())
            try:
                status, answer = await post.post(f"/api/match/{self.match_id}/move",
                                                 {"move": move, "version": line["version"]})
            except RateLimited as limited:
                self.pending.pop(made, None)
                bench.window.error("rate_limited")
                await asyncio.sleep(limited.seconds)
                continue
            break
        answered = time.monotonic()
        if status != 200:
            self.pending.pop(made, None)
            bench.window.error(answer.get("error", {}).get("code", str(status)))
            return
        if answer["version"] != made and made in self.pending:  # not one change: key it as it is
            self.pending[answer["version"]] = self.pending.pop(made)
        window = bench.window
        window.moves += 1
        window.posts.append(answered - sent)

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


class Bench:
    """Every table, the pacing of moves, the current window."""

    def __init__(self, host: str, port: int, seed: int):
        import random

        self.host, self.port = host, port
        self.rng = random.Random(seed)
        self.window = Window()
        self.rate: float | None = None  # None: saturation
        self.tables: list[Table] = []
        self._permits: asyncio.Queue | None = None
        self._pacer: asyncio.Task | None = None

    def rng_choice(self, moves: list):
        return self.rng.choice(moves)

    async def permit(self) -> None:
        if self._permits is not None:
            await self._permits.get()

    def pace(self, rate: float | None) -> None:
        """Offer ``rate`` moves/s in total from now (None: as fast as they come)."""
        if self._pacer is not None:
            self._pacer.cancel()
            self._pacer = None
        waiting = self._permits
        self._permits = None
        if rate is not None:
            self._permits = asyncio.Queue()
            self._pacer = asyncio.create_task(self._pace(rate, self._permits))
        if waiting is not None:  # bots waiting for a permit of the old pace go now
            for _ in range(len(self.tables) * 2):
                waiting.put_nowait(None)

    async def _pace(self, rate: float, permits: asyncio.Queue) -> None:
        interval, next_at = 1 / rate, time.monotonic()
        while True:
            next_at += interval
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            if permits.qsize() < 2 * len(self.tables):  # an unused permit is not banked for long
                permits.put_nowait(None)

    def begin(self) -> Window:
        self.window = Window()
        return self.window

    def end(self) -> Window:
        self.window.ended = time.monotonic()
        return self.window


async def keep_playing(bench: Bench, index: int, new_match) -> None:
    """Run ``bench.tables[index]``; when its match ends, a new one for the same bots."""
    while True:
        table = bench.tables[index]
        table.start()
        await table.ended.wait()
        await table.close()
        match_id = await new_match([uid for uid, _ in table.bots])
        bench.tables[index] = Table(bench, table.bots, match_id)


# -- one run ---------------------------------------------------------------------------


def cpu_reader(pid: int):
    return lambda: services.cpu_seconds(pid)


def summarise(window: Window, cpu: dict[str, float]) -> dict:
    moves = window.moves
    return {
        "seconds": window.seconds,
        "moves": moves,
        "moves_per_s": moves / window.seconds if window.seconds else float("nan"),
        "p50": percentile_ms(window.round_trips, 50),
        "p99": percentile_ms(window.round_trips, 99),
        "post_p50": percentile_ms(window.posts, 50),
        "post_p99": percentile_ms(window.posts, 99),
        "errors": dict(window.errors),
        "server_cpu_ms_per_move": 1000 * cpu["server"] / moves if moves else float("nan"),
        "server_cpu_percent": 100 * cpu["server"] / window.seconds,
        "redis_cpu_ms_per_move": 1000 * cpu["redis"] / moves if moves else float("nan"),
    }


def brief(r: dict) -> str:
    return (f"{r['moves_per_s']:.0f} moves/s, round trip p50 {r['p50']:.0f} ms p99 {r['p99']:.0f} ms "
            f"(POST p50 {r['post_p50']:.0f} ms), server {r['server_cpu_ms_per_move']:.2f} ms CPU/move "
            f"({r['server_cpu_percent']:.0f}% of a core), errors {r['errors'] or 'none'}")


async def drive(args, port: int, server_pid: int, redis_pid: int, bots: list[tuple[int, str]],
                matches: list[str]) -> dict:
    from asgiref.sync import sync_to_async

    bench = Bench("127.0.0.1", port, args.seed)
    new_match = sync_to_async(make_match)
    readers = {"server": cpu_reader(server_pid), "redis": cpu_reader(redis_pid)}
    bench.pace(0.001)  # nobody moves while the streams open
    # One stream opened and closed first, so the modules and caches the first API
    # request loads (django-ninja, pydantic, the API's code) are not counted as the
    # streams' memory.
    async with open_stream("127.0.0.1", port, f"/api/match/{matches[0]}/stream", bots[0][1]) as lines:
        async for _line in lines:
            break
    await asyncio.sleep(1)
    rss0 = services.rss_bytes(server_pid)
    runners = []
    for i, match_id in enumerate(matches):
        table = Table(bench, bots[2 * i:2 * i + 2], match_id)
        bench.tables.append(table)
    started = time.monotonic()
    for index in range(len(bench.tables)):
        runners.append(asyncio.create_task(keep_playing(bench, index, new_match)))
    while sum(t.opened for t in bench.tables) < len(bots) and time.monotonic() - started < 60:
        await asyncio.sleep(0.1)
    streams = sum(t.opened for t in bench.tables)
    await asyncio.sleep(2)
    rss1 = services.rss_bytes(server_pid)
    print(f"  {streams} streams open in {time.monotonic() - started:.1f} s; server RSS "
          f"{rss0 / 2**20:.1f} -> {rss1 / 2**20:.1f} MiB", flush=True)
    result = {"streams": streams, "bytes_per_stream": (rss1 - rss0) / streams if streams else float("nan"),
              "setup_errors": dict(bench.window.errors)}
    for name, rate, seconds in (("paced", args.rate, args.paced_seconds),
                                ("saturated", None, args.saturate_seconds)):
        label = f"(a) {args.rate:g} moves/s offered" if rate else "(b) saturation"
        print(f"  {label} for {seconds:g} s ...", flush=True)
        bench.pace(rate)
        await asyncio.sleep(args.warmup)
        bench.begin()
        cpu0 = {k: read() for k, read in readers.items()}
        await asyncio.sleep(seconds)
        cpu = {k: read() - cpu0[k] for k, read in readers.items()}
        result[name] = summarise(bench.end(), cpu)
        print(f"      {brief(result[name])}", flush=True)
    for runner in runners:
        runner.cancel()
    await asyncio.gather(*runners, return_exceptions=True)
    for table in bench.tables:
        await table.close()
    return result


def run(args) -> dict:
    from benchmarks.live import open_database

    bench_dir = services.BENCH_DIR
    services.stop_stale_postgres()
    if bench_dir.exists():
        shutil.rmtree(bench_dir)
    bench_dir.mkdir(parents=True)
    started: list = []
    django_ready = False
    try:
        database_url, database, _extra = open_database(args, bench_dir, started)
        print("Starting redis, migrating ...", flush=True)
        redis = services.start_redis(bench_dir / "redis.sock")
        started.append(redis)
        env = services.server_env(bench_dir / "redis.sock", database_url)
        if args.database == "postgres":
            env["DATABASE_POOL"] = "1"
        services.migrate(env)
        setup_django(dict(env, DATABASE_POOL="0"))
        django_ready = True
        t = time.perf_counter()
        bots = make_bots(args.bots, "apibot")
        matches = [make_match([bots[2 * i][0], bots[2 * i + 1][0]]) for i in range(args.bots // 2)]
        print(f"  {len(bots)} bot accounts with tokens, {len(matches)} matches made in "
              f"{time.perf_counter() - t:.1f} s", flush=True)
        port = services.free_port()
        server = services.start_server("daphne", port, env, None if args.no_pin else 0)
        started.append(server)
        print(f"daphne pid {server.pid} on 127.0.0.1:{port} ({database})", flush=True)
        result = asyncio.run(drive(args, port, server.pid, redis.pid, bots, matches))
        result.update(database=database, exited=not server.alive(), log_tail=server.log_tail(1500))
        return result
    finally:
        if django_ready:
            from django.db import connections

            connections.close_all()
        for svc in reversed(started):
            svc.stop()


def live_argv(args) -> list[str]:
    """bench-live's arguments for the same load on its path: as many match
    sockets as bots (four-seat matches, no user sockets: a bot holds none),
    the same offered rate, windows, warm-up, database and pinning."""
    return ["--no-ceiling", "--no-breakdown", "--no-user-sockets", "--matches", str(max(1, args.bots // 4)),
            "--rate", f"{args.rate:g}", "--paced-seconds", f"{args.paced_seconds:g}",
            "--saturate-seconds", f"{args.saturate_seconds:g}", "--warmup", f"{args.warmup:g}",
            "--database", args.database] + (["--no-pin"] if args.no_pin else [])


def beside_live(args) -> int:
    """bench-live (WebSockets, daphne:1) under ``live_argv``, in the same sitting, in a
    process of its own: its report follows this one. (Run in this process after the
    API's run, its sessions were refused as corrupted by its server and its sockets
    never connected.) Returns its exit status."""
    import subprocess

    command = [sys.executable, "-m", "benchmarks.live", *live_argv(args)]
    print(f"\nThe WebSocket path under the same load: {' '.join(command[1:])}", flush=True)
    return subprocess.run(command, check=False).returncode


def fmt(value, digits: int = 1) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return "-"
    return f"{value:,.{digits}f}"


def report(args, machine: dict, api: dict, live_run: dict | None) -> str:
    lines = [
        f"bench-api: {args.bots} bots, {args.bots // 2} two-seat Ludo matches, one daphne process "
        f"({'not pinned' if args.no_pin else 'pinned to core 0'}); {api['database']}",
        f"Machine: {machine['nproc']} cores, {machine['cpu']}, Python {machine['python']}, "
        f"kernel {machine['kernel']}; load before {machine['load_before']}",
        f"Streams open: {api['streams']}; server memory per open stream "
        f"{fmt(api['bytes_per_stream'] / 1024)} KiB",
        "",
    ]
    header = ["", "API (a) paced", "API (b) saturated"]
    rows = [("moves/s", "moves_per_s", 0), ("round trip p50, ms", "p50", 0), ("round trip p99, ms", "p99", 0),
            ("POST p50, ms", "post_p50", 0), ("POST p99, ms", "post_p99", 0),
            ("server CPU per move, ms", "server_cpu_ms_per_move", 2),
            ("server CPU, % of a core", "server_cpu_percent", 0),
            ("Redis CPU per move, ms", "redis_cpu_ms_per_move", 2)]
    if live_run is not None:
        header += ["WebSocket (a)", "WebSocket (b)"]
    table = [header]
    for label, key, digits in rows:
        row = [label, fmt(api["paced"].get(key), digits), fmt(api["saturated"].get(key), digits)]
        if live_run is not None:
            row += [fmt(live_run["paced"].get(key), digits), fmt(live_run["saturated"].get(key), digits)]
        table.append(row)
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    for r in table:
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths, strict=True))))
    for name in ("paced", "saturated"):
        if api[name]["errors"]:
            lines.append(f"API ({name}) errors: {api[name]['errors']}")
    if api["exited"]:
        lines.append(f"daphne EXITED during the run:\n{api['log_tail']}")
    command = f".venv/bin/python -m benchmarks.live {' '.join(live_argv(args))}"
    if live_run is None:
        lines += ["", f"The WebSocket path's figures for the same load: run {command}",
                  "in the same sitting (or this with --beside-live)."]
    else:
        lines += ["", f"WebSocket columns: {command}: {live_run['sockets']} match sockets of four-seat "
                      "matches of logged-in users; a round trip there ends when every socket of the match "
                      "has the move's frame."]
    return "\n".join(lines)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        description="Bots on the API under load: streams and POSTs on one daphne.")
    parser.add_argument("--bots", type=int, default=200, help="bots, two a match (default 200)")
    parser.add_argument("--rate", type=float, default=100, help="offered moves/s in (a) (default 100)")
    parser.add_argument("--paced-seconds", type=float, default=30, help="(a) window (default 30)")
    parser.add_argument("--saturate-seconds", type=float, default=30, help="(b) window (default 30)")
    parser.add_argument("--warmup", type=float, default=5, help="unmeasured seconds before each window")
    parser.add_argument("--seed", type=int, default=1, help="seed of the bots' move choices")
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite",
                        help="as bench-live's (default sqlite: a fresh file under var/bench)")
    parser.add_argument("--no-pin", action="store_true", help="leave daphne to the scheduler")
    parser.add_argument("--beside-live", action="store_true",
                        help="then run bench-live (WebSockets) under the same load, in a process of its own")
    parser.add_argument("--quick", action="store_true", help="smoke run: 10 bots, 3 s windows, 1 s warm-up")
    args = parser.parse_args(argv)
    if args.quick:
        args.bots, args.rate, args.paced_seconds, args.saturate_seconds, args.warmup = 10, 20, 3, 3, 1
    if args.bots < 2 or args.bots % 2:
        parser.error("--bots must be an even number of at least 2 (two bots a match)")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    machine = dict(services.machine(), load_before=services.load_average())
    start = time.perf_counter()
    print(f"bench-api {datetime.datetime.now().isoformat(timespec='seconds')} "
          f"({' '.join(sys.argv[1:]) or 'defaults'})", flush=True)
    try:
        api = run(args)
    except KeyboardInterrupt:
        print("Interrupted; every service stopped.", file=sys.stderr)
        return 130
    print()
    print(report(args, machine, api, None), flush=True)
    if args.beside_live:
        beside_live(args)
    print(f"\nTotal time {time.perf_counter() - start:.0f} s.")
    return 0 if api["paced"]["moves"] and api["saturated"]["moves"] else 1


if __name__ == "__main__":
    sys.exit(main())

