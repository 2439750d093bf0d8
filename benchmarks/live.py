"""Live play under load: real WebSocket clients against real Parlour servers.

Run: ``.venv/bin/python -m benchmarks.live [--quick] [--matches N] [--rate R]
[--paced-seconds S] [--saturate-seconds S] [--layouts daphne:1,uvicorn:2]
[--database sqlite|postgres] [--languages en,hi,es,de] [--peer]`` (``make bench-live``; ``make
bench-live-cluster`` runs ``--database postgres --layouts
daphne:1,daphne:2,uvicorn:1,uvicorn:2``; ``make bench-peer`` runs
``--peer``).

It starts its own services on loopback: the embedded redis-server on
``var/bench/redis.sock`` and a database, migrated: ``--database sqlite`` (the
default) a fresh SQLite file under ``var/bench/``; ``--database postgres``
the PostgreSQL at ``$DATABASE_URL`` when that is a postgres URL, else a
private PostgreSQL under ``var/bench/pg`` (Debian's
``/usr/lib/postgresql/*/bin``, PostgreSQL's defaults, stopped at the end),
with Django's psycopg pool (``DATABASE_POOL=1``) in every server process as
in the production layout.

A *layout* (``--layouts``, a comma list of ``server:processes``, default
``daphne:1``) is N processes of one ASGI server (daphne or uvicorn), each on
its own port, all on the one database and the one Redis, with production
settings, process i pinned to the i-th core as in production (``--no-pin``:
left to the scheduler; the ceiling server is pinned like process 0). Seat i
of a match connects to the (i mod N)-th process, so a move's
frames cross processes through Redis as they would behind a proxy. Layouts
run one after another, never two at once; each gets ``--matches`` fresh
four-seat Ludo matches of logged-in users (made through Django), one
``websockets`` client per seat (benchmarks/live_client.py), each seat also
holding the site-wide user socket (``/ws/notify/``, watching "Your matches"
as the home and play pages do; ``--no-user-sockets`` leaves it out), and its own
windows:

(a) a fixed offered load: ``--rate`` moves/s in total, paced by a global
    scheduler;
(b) saturation: every match moves as soon as it may; the rate is the number
    of players' moves persisted (``Move`` rows, actor "seat") per second.

A move's round trip runs from sending it until every socket of its match has
a frame of the version after it. Server cost: the CPU time (utime + stime
from /proc) of the layout's server processes, summed, per move; memory: the
sum of their RSS with every socket connected and idle, minus the sum before,
per socket. The user sockets' frames (each member's "Your matches" row and
the "your turn" note of every move, README "Notifications") are counted per
move apart from the round trips; their cost is the difference between a run
with and one without them (``--no-user-sockets``), and the breakdown times
their rendering. Redis's and a private PostgreSQL's CPU (the postmaster and its
backends) per move are reported beside it. The breakdown of a move's
synchronous parts (live_breakdown.py) runs once, after the first layout.
Last, the same client code and pacing drive a bare ``websockets`` broadcast
server (live_ceiling.py): the ceiling a Python WebSocket server reaches on
this machine.

Languages
---------
With ``--languages`` (a comma list of the site's language codes) seat i of
every match is a person who chose the i-th language (in turn) on their
account, so each seat's sockets, its match socket and its user socket, read
it: ``--languages en,hi,es,de`` is a match whose four seats use four
languages, each change rendered once per language (docs/i18n.md "Live
play"). Without it every account chose none and every socket reads English.

Peer
----
With ``--peer``, last of all, the same load runs against boardgame.io
(live_peer.py; the version ``benchmarks/peer/package-lock.json`` pins,
installed with ``npm ci`` into ``var/peer/`` when missing or when the lockfile
changed), the framework a developer would otherwise pick: a Node server
(``benchmarks/peer/server.js``: its ``Server`` with the defaults, in-memory
storage, nothing persisted, the socket.io transport) serving a four-seat dice
game with the turn shape of Ludo (``benchmarks/peer/game.js``: ``roll``, then
``move(piece)`` when the die allows; 4 x 4 pieces, a die, whose turn), pinned
to one core like Parlour's process 0. A separate Node process
(``benchmarks/peer/client.js``, not pinned, as this driver is not) makes the
``--matches`` matches through its Lobby API and plays them with one
boardgame.io ``Client`` per seat (its ``SocketIO`` transport, one WebSocket
each), windows (a) and (b) as above; a round trip ends when every seat's
client has the server's state after the move. Its CPU and memory are read
from /proc as for Parlour's servers, at points where the driver waits for
this side. The report ends with Parlour's first layout beside it, with the
ratio: (b) moves/s and CPU per move, (a) round trips, errors, memory per idle
socket, and the bytes of a move's frame to each socket. boardgame.io sends
every socket its whole state as JSON on each move (its default) and persists
nothing, where Parlour writes every move to the database and renders HTML:
the ratio includes both. The node server's Lobby API calls for replacing
finished matches fall in its windows; Parlour makes its matches in this
process.

With ``--peer --database postgres`` boardgame.io also runs with its matches
in PostgreSQL (bgio-postgres, pinned in the same lockfile), in a database of
its own (``bgio_peer``) on the server Parlour used, before that server
stops: persistence on both sides, with PostgreSQL's CPU per move read the
same way for both. A second table puts Parlour's first layout beside it.
boardgame.io reads the match, sends the update, then writes the state, the
log and the metadata (each move); Parlour sends after its commit.
``make bench-peer`` runs both: SQLite beside boardgame.io in memory, then
PostgreSQL beside boardgame.io in memory and on PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import os
import secrets
import shutil
import sys
import time
import urllib.parse

from benchmarks import live_peer
from benchmarks import live_services as services
from benchmarks.live_client import Bench, Stats, Target
from benchmarks.live_django import make_match, make_players, seat_moves_between, setup_django
from benchmarks.live_report import brief, peer_report, report, summarise

# -- one server layout under load --------------------------------------------------


class Probe:
    """CPU seconds of named process groups over a window: ``readers`` maps a
    name ("server", "redis", "database") to a function returning CPU seconds so far."""

    def __init__(self, readers: dict):
        self.readers = readers
        self.start = {name: read() for name, read in readers.items()}

    def cpu(self) -> dict[str, float]:
        return {name: read() - self.start[name] for name, read in self.readers.items()}


async def measured(bench: Bench, readers: dict, mode: str, args, seconds: float,
                   warmup: float, count_persisted=None) -> dict:
    """Run ``mode`` for ``warmup`` s unmeasured, then ``seconds`` s measured."""
    await bench.set_mode(mode)
    if mode == "paced":
        await bench.pace(args.rate, warmup)
    else:
        await asyncio.sleep(warmup)
    wall0 = datetime.datetime.now(datetime.UTC)
    stats = bench.begin_window()
    probe = Probe(readers)
    if mode == "paced":
        await bench.pace(args.rate, seconds)
    else:
        await asyncio.sleep(seconds)
    cpu = probe.cpu()
    stats = bench.end_window()
    wall1 = datetime.datetime.now(datetime.UTC)
    await bench.drain()
    result = summarise(stats, cpu)
    if count_persisted is not None:
        persisted = await count_persisted(wall0, wall1)
        result["persisted"] = persisted
        result["persisted_per_s"] = persisted / (wall1 - wall0).total_seconds()
    return result


async def run_server(host: str, ports: list[int], server_pids: list[int], targets: list[Target], args, *,
                     extra_cpu: dict | None = None, new_target=None,
                     warmup_target: Target | None = None, count_persisted=None,
                     user_sockets: bool = False) -> dict:
    """Connect every table (seat i to ``ports[i % len(ports)]``), measure idle
    memory, then (a) paced and (b) saturation. CPU and RSS of "server" are
    sums over ``server_pids``; ``extra_cpu`` adds named CPU readers (see Probe).
    ``user_sockets``: each seat also holds a user socket (live_client.py)."""
    readers = {"server": lambda: sum(services.cpu_seconds(p) for p in server_pids), **(extra_cpu or {})}
    bench = Bench(host, ports, new_target=new_target, seed=args.seed, timeout=args.timeout,
                  user_sockets=user_sockets)
    try:
        if warmup_target is not None:
            # Touch every code path (imports, templates, connections) before the baseline RSS;
            # its four seats reach up to four processes.
            await bench.open_tables([warmup_target])
            await bench.set_mode("saturate")
            await asyncio.sleep(2)
            await bench.drain()
            await bench.tables[0].close()
            bench.tables.clear()
            bench.stats = Stats()
        await asyncio.sleep(1)
        rss0 = sum(services.rss_bytes(p) for p in server_pids)
        t = time.perf_counter()
        await bench.open_tables(targets)
        connect_s = time.perf_counter() - t
        if not any(table.offer for table in bench.tables):
            raise RuntimeError("no seat was offered a move after connecting: are the sessions "
                               "authenticated (the seat frames carry no move buttons)?")
        await asyncio.sleep(2)
        sockets = bench.open_sockets()
        user_socket_count = bench.open_user_sockets()
        sockets += user_socket_count
        rss1 = sum(services.rss_bytes(p) for p in server_pids)
        setup_errors = dict(bench.stats.errors)
        print(f"  {sockets} sockets connected ({user_socket_count} of them user sockets) in "
              f"{connect_s:.1f} s; RSS {rss0 / 2**20:.1f} -> {rss1 / 2**20:.1f} MiB", flush=True)

        print(f"  (a) {args.rate:g} moves/s offered for {args.paced_seconds:g} s ...", flush=True)
        paced = await measured(bench, readers, "paced", args, args.paced_seconds, args.warmup,
                               count_persisted)
        print(f"      {brief(paced)}", flush=True)
        print(f"  (b) saturation for {args.saturate_seconds:g} s ...", flush=True)
        saturated = await measured(bench, readers, "saturate", args, args.saturate_seconds,
                                   args.warmup, count_persisted)
        print(f"      {brief(saturated)}", flush=True)
        return {
            "sockets": sockets,
            "user_sockets": user_socket_count,
            "connect_seconds": connect_s,
            "rss_idle_bytes": rss1,
            "rss_base_bytes": rss0,
            "bytes_per_socket": (rss1 - rss0) / sockets if sockets else float("nan"),
            "setup_errors": setup_errors,
            "public_frame_bytes": bench.mean_frame_bytes("public"),
            "seat_frame_bytes": bench.mean_frame_bytes("seat"),
            "public_frame_median": bench.median_frame_bytes("public"),
            "seat_frame_median": bench.median_frame_bytes("seat"),
            "frame_counts": {k: len(v) for k, v in bench.frame_sizes.items()},
            "heartbeat_frames": bench.heartbeats,  # idle sockets' (games/consumers.py), never errors
            "paced": paced,
            "saturated": saturated,
        }
    finally:
        await bench.close()


# -- layouts ---------------------------------------------------------------------------


def parse_layouts(text: str) -> list[tuple[str, int]]:
    """"daphne:1,uvicorn:2" -> [("daphne", 1), ("uvicorn", 2)]; argparse error on bad input."""
    layouts: list[tuple[str, int]] = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        kind, _, count = item.partition(":")
        kind = kind.strip().lower()
        if kind not in services.SERVERS:
            raise argparse.ArgumentTypeError(f"unknown server {kind!r} in {item!r}; "
                                             f"one of {', '.join(services.SERVERS)}")
        try:
            processes = int(count) if count.strip() else 1
        except ValueError:
            raise argparse.ArgumentTypeError(f"{item!r}: the process count must be a number") from None
        if not 1 <= processes <= 16:
            raise argparse.ArgumentTypeError(f"{item!r}: between 1 and 16 server processes")
        if (kind, processes) in layouts:
            raise argparse.ArgumentTypeError(f"{kind}:{processes} is listed twice")
        layouts.append((kind, processes))
    if not layouts:
        raise argparse.ArgumentTypeError("no layout given, e.g. daphne:1,uvicorn:2")
    return layouts


def layout_label(kind: str, processes: int) -> str:
    return f"{kind}:{processes}"


def make_groups(matches: int, languages: list[str] | None = None) -> list[list[tuple[object, str]]]:
    """Fresh logged-in users (a new name prefix) in groups of four: one group
    per match; with ``languages``, the i-th user of each group chose the i-th
    of them (in turn) on their account."""
    prefix = f"b{secrets.token_hex(3)}_"
    players = make_players(4 * matches, prefix)
    if languages:
        set_languages(players, languages)
    return [players[i:i + 4] for i in range(0, len(players), 4)]


def parse_languages(text: str) -> list[str]:
    """"en,hi,es,de" -> ["en", "hi", "es", "de"]; argparse error on bad input
    (the codes are checked against the site's languages once Django is set up)."""
    codes = [c.strip() for c in text.split(",")]
    if not all(c.isalpha() and c.islower() for c in codes):
        raise argparse.ArgumentTypeError(f"{text!r}: a comma list of language codes, e.g. en,hi,es,de")
    return codes


def set_languages(players: list[tuple[object, str]], languages: list[str]) -> None:
    """Player i (each four a match's seats) chose ``languages[i % 4 % len]`` on their account."""
    from accounts import languages as site_languages
    from accounts.models import User

    unknown = [c for c in languages if not site_languages.valid(c)]
    if unknown:
        raise SystemExit(f"--languages: {', '.join(unknown)} not among the site's languages "
                         f"({', '.join(sorted(site_languages.CODES))})")
    for code in set(languages):
        ids = [u.pk for i, (u, _s) in enumerate(players) if languages[i % 4 % len(languages)] == code]
        User.objects.filter(pk__in=ids).update(language="" if code == "en" else code)


def run_layout(args, kind: str, processes: int, env: dict, extra_cpu: dict,
               groups: list[list[tuple[object, str]]]) -> dict:
    """Start ``processes`` ``kind`` servers (one port each), play ``groups``'
    matches through them ((a) then (b)), stop them; the run's result dict."""
    from asgiref.sync import sync_to_async

    label = layout_label(kind, processes)
    t = time.perf_counter()
    targets = [make_match(g) for g in groups]
    print(f"  {len(targets)} matches of {4 * len(targets)} logged-in users made in "
          f"{time.perf_counter() - t:.1f} s", flush=True)
    rotation = iter(range(10**9))

    async def new_target() -> Target:
        return await sync_to_async(make_match)(groups[next(rotation) % len(groups)])

    servers: list[services.Service] = []
    try:
        ports = []
        for _ in range(processes):
            port = services.free_port()
            core = None if args.no_pin else len(servers)
            servers.append(services.start_server(kind, port, env, core))
            ports.append(port)
        where = ", ".join(f"pid {s.pid} on 127.0.0.1:{p}" for s, p in zip(servers, ports, strict=True))
        print(f"Parlour {label}: {where}", flush=True)
        result = asyncio.run(run_server(
            "127.0.0.1", ports, [s.pid for s in servers], targets[1:], args,
            extra_cpu=extra_cpu, new_target=new_target, warmup_target=targets[0],
            count_persisted=sync_to_async(seat_moves_between), user_sockets=not args.no_user_sockets,
        ))
        result.update(label=label, kind=kind, processes=processes, ports=ports)
        result["exited"] = [s.name for s in servers if not s.alive()]
        for s in servers:
            if not s.alive():
                print(f"  {s.name} EXITED during the run:\n{s.log_tail(2000)}", flush=True)
        result["log_tails"] = {s.name: s.log_tail(2000) for s in servers}
        return result
    finally:
        for s in servers:
            s.stop()


def open_database(args, bench_dir, started: list) -> tuple[str, str, dict]:
    """(DATABASE_URL, how the report names it, extra CPU readers) for ``--database``.

    A private PostgreSQL is appended to ``started`` before it starts, so it is
    stopped at the end even if its start fails half way."""
    if args.database == "sqlite":
        return (f"sqlite:///{bench_dir / 'db.sqlite3'}",
                "SQLite (a fresh file under var/bench/, WAL)", {})
    url = os.environ.get("DATABASE_URL", "")
    pool = "Django's psycopg pool in each server process (DATABASE_POOL=1)"
    if url.split(":", 1)[0].startswith(("postgres", "pgsql", "psql")):
        parts = urllib.parse.urlsplit(url)
        where = f"{parts.hostname}:{parts.port or 5432}{parts.path}"
        return url, f"PostgreSQL at $DATABASE_URL ({where}), {pool}", {}
    print("Starting a private PostgreSQL under var/bench/pg ...", flush=True)
    pg = services.Postgres()
    started.append(pg)
    pg.start()
    pid = pg.pid
    description = (f"{pg.version}, private server under var/bench/pg (PostgreSQL's defaults: fsync "
                   f"and synchronous_commit on), {pool}")
    return pg.url, description, {"database": lambda: services.tree_cpu_seconds(pid)}


def peer_database(database_url: str) -> str:
    """A new, empty database ``bgio_peer`` beside ``database_url``'s (dropped
    first if there): the URL of it."""
    import psycopg

    parts = urllib.parse.urlsplit(database_url)
    with psycopg.connect(urllib.parse.urlunsplit(parts._replace(path="/postgres")),
                         autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS bgio_peer")
        conn.execute("CREATE DATABASE bgio_peer")
    return urllib.parse.urlunsplit(parts._replace(path="/bgio_peer", scheme="postgres"))


def run_parlour(args) -> dict:
    bench_dir = services.BENCH_DIR
    services.stop_stale_postgres()
    if bench_dir.exists():
        shutil.rmtree(bench_dir)
    bench_dir.mkdir(parents=True)
    redis_socket = bench_dir / "redis.sock"
    started: list = []  # services shared by every layout, stopped in reverse order at the end
    django_ready = False
    try:
        database_url, database, extra_cpu = open_database(args, bench_dir, started)
        print("Starting redis, migrating ...", flush=True)
        redis = services.start_redis(redis_socket)
        started.append(redis)
        extra_cpu = {"redis": lambda: services.cpu_seconds(redis.pid), **extra_cpu}
        env = services.server_env(redis_socket, database_url)
        if args.database == "postgres":
            env["DATABASE_POOL"] = "1"  # the production layout's setting
        services.migrate(env)
        # The driver's own Django (making matches, counting moves, the breakdown)
        # keeps a plain connection: no pool whose workers would outlive the server.
        setup_django(dict(env, DATABASE_POOL="0"))
        django_ready = True
        result: dict = {"database": database, "runs": []}
        for i, (kind, processes) in enumerate(args.layouts):
            label = layout_label(kind, processes)
            print(f"Layout {label} ({i + 1} of {len(args.layouts)}) ...", flush=True)
            groups = make_groups(args.matches + 1, args.languages)
            result["runs"].append(run_layout(args, kind, processes, env, extra_cpu, groups))
            if i == 0 and not args.no_breakdown:
                from benchmarks.live_breakdown import breakdown

                print(f"Breakdown of a move's synchronous parts (driver process, one thread; "
                      f"after {label}, its servers stopped) ...", flush=True)
                result["breakdown"] = breakdown(groups[0], make_match, moves=100 if args.quick else 300)
            time.sleep(1)  # let the stopped servers' connections go before the next layout
        if args.peer and args.database == "postgres":
            # boardgame.io on the same PostgreSQL, in a database of its own.
            peer_url = peer_database(database_url)
            database_cpu = {k: v for k, v in extra_cpu.items() if k == "database"}
            result["peer_postgres"] = run_peer(args, peer_url, database_cpu)
        return result
    finally:
        if django_ready:
            from django.db import connections

            connections.close_all()
        for svc in reversed(started):
            svc.stop()


def run_ceiling(args, public_bytes: int, seat_bytes: int) -> dict:
    port = services.free_port()
    svc = services.start_ceiling(port, public_bytes, seat_bytes, None if args.no_pin else 0)
    try:
        print(f"Ceiling: bare websockets server pid {svc.pid} on 127.0.0.1:{port}", flush=True)
        targets = [Target(f"room{i}", [str(s) for s in range(4)]) for i in range(args.matches)]
        return asyncio.run(run_server("127.0.0.1", [port], [svc.pid], targets, args,
                                      warmup_target=Target("warmup", ["0", "1", "2", "3"])))
    finally:
        svc.stop()


def run_peer(args, database_url: str | None = None, extra_cpu: dict | None = None) -> dict:
    """boardgame.io under the same load (live_peer.py): its server pinned like
    Parlour's process 0, its matches in memory or, with ``database_url``, in
    that PostgreSQL database (bgio-postgres; ``extra_cpu``: readers of other
    processes' CPU seconds, as for Parlour's run); the result shaped like
    run_server's (``label``, ``paced``, ``saturated``, ``sockets``,
    ``bytes_per_socket``...) plus ``update_frame_bytes`` (the mean frame of a
    move, bytes), ``versions`` and ``storage``."""
    port = services.free_port()
    versions = live_peer.versions()
    storage = "PostgreSQL (bgio-postgres)" if database_url else "in memory"
    svc = live_peer.start_server(port, None if args.no_pin else 0, database_url)
    try:
        print(f"Peer: boardgame.io {versions['boardgame.io']} server (Node {versions['node']}), matches "
              f"{storage}, pid {svc.pid} on 127.0.0.1:{port}", flush=True)
        raw = live_peer.play(args, svc.pid, port, extra_cpu)
        exited = not svc.alive()
        log_tail = svc.log_tail(2000)
    finally:
        svc.stop()
    if exited:
        print(f"  the peer server EXITED during the run:\n{log_tail}", flush=True)
    sockets = raw["sockets"]
    return {
        "label": f"boardgame.io {versions['boardgame.io']}" + (" on PostgreSQL" if database_url else ""),
        "versions": versions,
        "storage": storage,
        "port": port,
        "sockets": sockets,
        "connect_seconds": raw["connect_seconds"],
        "rss_base_bytes": raw["rss_base_bytes"],
        "rss_idle_bytes": raw["rss_idle_bytes"],
        "bytes_per_socket": ((raw["rss_idle_bytes"] - raw["rss_base_bytes"]) / sockets if sockets
                             else float("nan")),
        "setup_errors": raw["setup_errors"],
        "update_frame_bytes": raw["update_frame_bytes"],
        "other_frame_bytes": raw["other_frame_bytes"],
        **{name: summarise(stats, {"server": cpu, **extra})
           for name, (stats, cpu, extra) in raw["windows"].items()},
        "exited": exited,
    }


def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        description="Live play under load: real WebSockets against one or more server layouts.")
    parser.add_argument("--matches", type=int, default=200,
                        help="four-seat matches per layout (default 200)")
    parser.add_argument("--rate", type=float, default=100, help="offered moves/s in (a) (default 100)")
    parser.add_argument("--paced-seconds", type=float, default=40, help="(a) window (default 40)")
    parser.add_argument("--saturate-seconds", type=float, default=30, help="(b) window (default 30)")
    parser.add_argument("--warmup", type=float, default=5, help="unmeasured seconds before each window")
    parser.add_argument("--timeout", type=float, default=10, help="a round trip lost after this many s")
    parser.add_argument("--seed", type=int, default=1, help="seed of the clients' move choices")
    parser.add_argument("--layouts", type=parse_layouts, default=[("daphne", 1)],
                        help="comma list of server:processes, run one after another "
                             f"(servers: {', '.join(services.SERVERS)}; default daphne:1)")
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite",
                        help="sqlite: a fresh file under var/bench (default); postgres: $DATABASE_URL if "
                             "it is a postgres URL, else a private PostgreSQL under var/bench/pg")
    parser.add_argument("--no-pin", action="store_true",
                        help="leave server processes to the scheduler (default: process i pinned to "
                             "the i-th core, as production runs them; config.servers.pinned)")
    parser.add_argument("--no-user-sockets", action="store_true",
                        help="seats open only their match socket (default: each also holds a user "
                             "socket, /ws/notify/, watching Your matches, as every page does)")
    parser.add_argument("--no-ceiling", action="store_true", help="skip the bare websockets server")
    parser.add_argument("--no-breakdown", action="store_true", help="skip the per-part cost breakdown")
    parser.add_argument("--peer", action="store_true",
                        help="last, run boardgame.io under the same load (installed into var/peer with npm "
                             "ci) and print Parlour's first layout beside it; with --database postgres "
                             "also boardgame.io on that PostgreSQL (bgio-postgres), before it stops")
    parser.add_argument("--languages", type=parse_languages, default=None,
                        help="comma list of language codes: seat i of every match chose the i-th on "
                             "its account (e.g. en,hi,es,de: four seats, four languages); default: "
                             "none chosen, every socket English")
    parser.add_argument("--quick", action="store_true",
                        help="smoke run: 20 matches, 10 s windows, 2 s warm-up")
    args = parser.parse_args(argv)
    if args.quick:
        args.matches, args.paced_seconds, args.saturate_seconds, args.warmup = 20, 10, 10, 2
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    machine = dict(services.machine(), load_before=services.load_average())
    start = time.perf_counter()
    print(f"bench-live {datetime.datetime.now().isoformat(timespec='seconds')} "
          f"({' '.join(sys.argv[1:]) or 'defaults'})", flush=True)
    if args.languages:
        print(f"Seat languages: {', '.join(args.languages)} (seat i reads the i-th, in turn)", flush=True)
    try:
        if args.peer:
            live_peer.install()  # before Parlour's run: a missing npm fails at once
        parlour = run_parlour(args)
        ceiling = None
        if not args.no_ceiling:
            first = parlour["runs"][0]
            public = first["public_frame_bytes"] or 8000
            ceiling = run_ceiling(args, public, max(600, (first["seat_frame_bytes"] or 0) - public))
        peer = run_peer(args) if args.peer else None  # in memory: the framework's ceiling
    except KeyboardInterrupt:
        print("Interrupted; every service stopped.", file=sys.stderr)
        return 130
    print()
    print(report(args, machine, parlour, ceiling))
    if peer is not None:
        print()
        print(peer_report(args, parlour["runs"][0], peer))
    if parlour.get("peer_postgres") is not None:
        print()
        print(peer_report(args, parlour["runs"][0], parlour["peer_postgres"]))
    print(f"\nTotal time {time.perf_counter() - start:.0f} s.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
