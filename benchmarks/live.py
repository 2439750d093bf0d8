"""Live play under load: real WebSocket clients against ONE real daphne.

Run: ``.venv/bin/python -m benchmarks.live [--quick] [--matches N] [--rate R]
[--paced-seconds S] [--saturate-seconds S]`` (``make bench-live``).

It starts its own services on loopback: the embedded redis-server on
``var/bench/redis.sock``, a fresh SQLite database under ``var/bench/`` (or
``$DATABASE_URL``, migrated), and one daphne with production settings. It
creates four-seat Ludo matches of logged-in users through Django, opens one
``websockets`` client per seat (benchmarks/live_client.py) and plays:

(a) a fixed offered load: ``--rate`` moves/s in total, paced by a global
    scheduler, over ``--matches`` matches;
(b) saturation: every match moves as soon as it may; the rate is the number
    of players' moves persisted (``Move`` rows, actor "seat") per second.

A move's round trip runs from sending it until every socket of its match has
a frame of the version after it. Server cost: daphne's CPU time (utime +
stime from /proc) per move; memory: daphne's RSS with every socket connected
and idle, minus its RSS before, per socket. The same client code and pacing
then drive a bare ``websockets`` broadcast server (live_ceiling.py): the
ceiling a Python WebSocket server reaches on this machine.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import math
import os
import secrets
import shutil
import sys
import time

from benchmarks import live_services as services
from benchmarks.live_client import Bench, Stats, Target

TURN_SECONDS = 24 * 3600  # no deadline fires during the run (and no Celery worker runs)


# -- Django side: users, sessions, matches ---------------------------------------


def setup_django(env: dict) -> None:
    os.environ.update(env)
    import django

    django.setup()


def make_players(count: int, prefix: str) -> list[tuple[object, str]]:
    """``count`` users, each logged in: [(user, sessionid cookie value)].

    Logged in the way Django's test client does it (``force_login``: the
    first configured authentication backend, a real session row), so the
    WebSocket handshake authenticates exactly like a browser's."""
    from django.conf import settings
    from django.contrib.auth.hashers import make_password
    from django.test import Client

    from accounts.models import User

    unusable = make_password(None)  # no password hashing: nobody logs in by form
    User.objects.bulk_create(
        User(username=f"{prefix}{i}", email=f"{prefix}{i}@bench.invalid", password=unusable)
        for i in range(count)
    )
    players = []
    for user in User.objects.filter(username__startswith=prefix).order_by("pk"):
        client = Client()
        client.force_login(user)
        players.append((user, client.cookies[settings.SESSION_COOKIE_NAME].value))
    return players


def make_match(players: list[tuple[object, str]]) -> Target:
    """A started four-seat Ludo match of ``players`` with long turns."""
    from games import actions

    match = actions.create_match(
        "ludo", [actions.SeatSpec(user=u) for u, _ in players], turn_seconds=TURN_SECONDS
    )
    actions.start_match(match.public_id)
    return Target(match.public_id, [s for _, s in players])


def seat_moves_between(start, end) -> int:
    from games.models import Move

    return Move.objects.filter(actor=Move.Actor.SEAT, created_at__gte=start, created_at__lt=end).count()


# -- one server under load -------------------------------------------------------


class Probe:
    """CPU seconds of the server processes and of the driver over a window."""

    def __init__(self, pids: dict[str, int]):
        self.pids = pids
        self.start = {name: services.cpu_seconds(pid) for name, pid in pids.items()}

    def cpu(self) -> dict[str, float]:
        return {name: services.cpu_seconds(pid) - self.start[name] for name, pid in self.pids.items()}


async def measured(bench: Bench, pids: dict[str, int], mode: str, args, seconds: float,
                   warmup: float, count_persisted=None) -> dict:
    """Run ``mode`` for ``warmup`` s unmeasured, then ``seconds`` s measured."""
    await bench.set_mode(mode)
    if mode == "paced":
        await bench.pace(args.rate, warmup)
    else:
        await asyncio.sleep(warmup)
    wall0 = datetime.datetime.now(datetime.UTC)
    stats = bench.begin_window()
    probe = Probe(pids)
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


def summarise(stats: Stats, cpu: dict[str, float]) -> dict:
    moves = len(stats.rtts)
    return {
        "seconds": stats.seconds,
        "sent": stats.sent,
        "moves": moves,
        "moves_per_s": stats.moves_per_second,
        "p50": stats.percentile_ms(50),
        "p95": stats.percentile_ms(95),
        "p99": stats.percentile_ms(99),
        "max": max(stats.rtts) * 1000 if stats.rtts else float("nan"),
        "errors": dict(stats.errors),
        "error_count": sum(stats.errors.values()),
        "missed_slots": stats.missed_slots,
        "replaced": stats.replaced,
        "server_cpu_ms_per_move": 1000 * cpu["server"] / moves if moves else float("nan"),
        "server_cpu_percent": 100 * cpu["server"] / stats.seconds,
        "redis_cpu_ms_per_move": (1000 * cpu["redis"] / moves if moves else float("nan"))
        if "redis" in cpu else None,
        "driver_cpu_percent": stats.driver_cpu_percent,
    }


async def run_server(host: str, port: int, pid: int, targets: list[Target], args, *,
                     extra_pids: dict[str, int] | None = None, new_target=None,
                     warmup_target: Target | None = None, count_persisted=None) -> dict:
    """Connect every table, measure idle memory, then (a) paced and (b) saturation."""
    pids = {"server": pid, **(extra_pids or {})}
    bench = Bench(host, port, new_target=new_target, seed=args.seed, timeout=args.timeout)
    try:
        if warmup_target is not None:
            # Touch every code path (imports, templates, connections) before the baseline RSS.
            await bench.open_tables([warmup_target])
            await bench.set_mode("saturate")
            await asyncio.sleep(2)
            await bench.drain()
            await bench.tables[0].close()
            bench.tables.clear()
            bench.stats = Stats()
        await asyncio.sleep(1)
        rss0 = services.rss_bytes(pid)
        t = time.perf_counter()
        await bench.open_tables(targets)
        connect_s = time.perf_counter() - t
        if not any(table.offer for table in bench.tables):
            raise RuntimeError("no seat was offered a move after connecting: are the sessions "
                               "authenticated (the seat frames carry no move buttons)?")
        await asyncio.sleep(2)
        sockets = bench.open_sockets()
        rss1 = services.rss_bytes(pid)
        setup_errors = dict(bench.stats.errors)
        print(f"  {sockets} sockets connected in {connect_s:.1f} s; RSS {rss0 / 2**20:.1f} -> "
              f"{rss1 / 2**20:.1f} MiB", flush=True)

        print(f"  (a) {args.rate:g} moves/s offered for {args.paced_seconds:g} s ...", flush=True)
        paced = await measured(bench, pids, "paced", args, args.paced_seconds, args.warmup,
                               count_persisted)
        print(f"      {brief(paced)}", flush=True)
        print(f"  (b) saturation for {args.saturate_seconds:g} s ...", flush=True)
        saturated = await measured(bench, pids, "saturate", args, args.saturate_seconds,
                                   args.warmup, count_persisted)
        print(f"      {brief(saturated)}", flush=True)
        return {
            "sockets": sockets,
            "connect_seconds": connect_s,
            "rss_idle_bytes": rss1,
            "rss_base_bytes": rss0,
            "bytes_per_socket": (rss1 - rss0) / sockets if sockets else float("nan"),
            "setup_errors": setup_errors,
            "public_frame_bytes": bench.mean_frame_bytes("public"),
            "seat_frame_bytes": bench.mean_frame_bytes("seat"),
            "frame_counts": {k: v[0] for k, v in bench.frame_sizes.items()},
            "paced": paced,
            "saturated": saturated,
        }
    finally:
        await bench.close()


def brief(r: dict) -> str:
    persisted = f", {r['persisted_per_s']:.0f} persisted/s" if "persisted_per_s" in r else ""
    return (f"{r['moves_per_s']:.0f} moves/s{persisted}, p50 {r['p50']:.0f} ms, p99 {r['p99']:.0f} ms, "
            f"{r['error_count']} errors, server {r['server_cpu_ms_per_move']:.2f} ms CPU/move "
            f"({r['server_cpu_percent']:.0f}% of a core), driver {r['driver_cpu_percent']:.0f}%")


# -- the run -------------------------------------------------------------------------


def run_parlour(args) -> dict:
    bench_dir = services.BENCH_DIR
    if bench_dir.exists():
        shutil.rmtree(bench_dir)
    bench_dir.mkdir(parents=True)
    database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{bench_dir / 'db.sqlite3'}"
    redis_socket = bench_dir / "redis.sock"
    started: list[services.Service] = []
    try:
        print("Starting redis, migrating, starting daphne ...", flush=True)
        redis = services.start_redis(redis_socket)
        started.append(redis)
        env = services.server_env(redis_socket, database_url)
        services.migrate(env)
        setup_django(env)
        port = services.free_port()
        daphne = services.start_daphne(port, env)
        started.append(daphne)

        from asgiref.sync import sync_to_async

        prefix = f"b{secrets.token_hex(3)}_"
        t = time.perf_counter()
        players = make_players(4 * (args.matches + 1), prefix)
        groups = [players[i:i + 4] for i in range(0, len(players), 4)]
        targets = [make_match(g) for g in groups]
        print(f"  {len(targets)} matches of {len(players)} logged-in users made in "
              f"{time.perf_counter() - t:.1f} s", flush=True)
        rotation = iter(range(10**9))

        async def new_target() -> Target:
            return await sync_to_async(make_match)(groups[next(rotation) % len(groups)])

        print(f"Parlour: daphne pid {daphne.pid} on 127.0.0.1:{port}", flush=True)
        result = asyncio.run(run_server(
            "127.0.0.1", port, daphne.pid, targets[1:], args,
            extra_pids={"redis": redis.pid}, new_target=new_target, warmup_target=targets[0],
            count_persisted=sync_to_async(seat_moves_between),
        ))
        result["daphne_log_tail"] = daphne.log_tail(2000)
        daphne.stop()  # the breakdown runs alone
        if not args.no_breakdown:
            from benchmarks.live_breakdown import breakdown

            print("Breakdown of a move's synchronous parts (driver process, one thread) ...", flush=True)
            result["breakdown"] = breakdown(groups[0], make_match, moves=100 if args.quick else 300)
        result["database"] = database_url.split(":", 1)[0]
        return result
    finally:
        for svc in reversed(started):
            svc.stop()


def run_ceiling(args, public_bytes: int, seat_bytes: int) -> dict:
    port = services.free_port()
    svc = services.start_ceiling(port, public_bytes, seat_bytes)
    try:
        print(f"Ceiling: bare websockets server pid {svc.pid} on 127.0.0.1:{port}", flush=True)
        targets = [Target(f"room{i}", [str(s) for s in range(4)]) for i in range(args.matches)]
        return asyncio.run(run_server("127.0.0.1", port, svc.pid, targets, args,
                                      warmup_target=Target("warmup", ["0", "1", "2", "3"])))
    finally:
        svc.stop()


# -- the report ----------------------------------------------------------------------


def fmt(value, digits: int = 1) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:,.{digits}f}"


def ratio(ours, theirs) -> str:
    if not ours or not theirs or any(isinstance(v, float) and math.isnan(v) for v in (ours, theirs)):
        return "-"
    return f"{ours / theirs:.2f}x"


def report(args, machine: dict, parlour: dict, ceiling: dict | None) -> str:
    c = ceiling or {}
    rows: list[tuple[str, str, str, str]] = []

    def row(label, ours, theirs=None, digits=1, with_ratio=True):
        rows.append((label, fmt(ours, digits), fmt(theirs, digits) if ceiling else "-",
                     ratio(ours, theirs) if with_ratio and ceiling else ""))

    for key, title in (("paced", f"(a) offered {args.rate:g} moves/s"), ("saturated", "(b) saturation")):
        p, q = parlour[key], c.get(key, {})
        rows.append((title, "", "", ""))
        row("  moves/s persisted (DB rows, actor seat)", p.get("persisted_per_s"), q.get("moves_per_s"), 0)
        row("  moves/s (round trips completed)", p["moves_per_s"], q.get("moves_per_s"), 0)
        row("  round trip p50 (ms)", p["p50"], q.get("p50"))
        row("  round trip p95 (ms)", p["p95"], q.get("p95"))
        row("  round trip p99 (ms)", p["p99"], q.get("p99"))
        row("  round trip max (ms)", p["max"], q.get("max"), with_ratio=False)
        row("  errors", p["error_count"], q.get("error_count"), 0, with_ratio=False)
        row("  server CPU per move (ms)", p["server_cpu_ms_per_move"], q.get("server_cpu_ms_per_move"), 2)
        row("  server CPU (% of one core)", p["server_cpu_percent"], q.get("server_cpu_percent"), 0,
            with_ratio=False)
        row("  redis CPU per move (ms)", p["redis_cpu_ms_per_move"], None, 2, with_ratio=False)
        row("  driver (clients) CPU (% of one core)", p["driver_cpu_percent"], q.get("driver_cpu_percent"),
            0, with_ratio=False)
        if key == "paced":
            row("  paced slots with no match ready", p["missed_slots"], q.get("missed_slots"), 0,
                with_ratio=False)
        row("  finished matches replaced", p["replaced"], q.get("replaced"), 0, with_ratio=False)
    rows.append(("idle sockets", "", "", ""))
    row("  sockets connected", parlour["sockets"], c.get("sockets"), 0, with_ratio=False)
    row("  server RSS with all idle (MiB)", parlour["rss_idle_bytes"] / 2**20,
        c.get("rss_idle_bytes", 0) / 2**20 if ceiling else None, with_ratio=False)
    row("  server memory per idle socket (KiB)", parlour["bytes_per_socket"] / 1024,
        c.get("bytes_per_socket", float("nan")) / 1024 if ceiling else None)
    row("  time to connect all (s)", parlour["connect_seconds"], c.get("connect_seconds"), with_ratio=False)

    header = ("", "Parlour", "bare websockets", "ratio")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(4)]
    lines = ["  ".join(h.ljust(widths[0]) if i == 0 else h.rjust(widths[i]) for i, h in enumerate(header))]
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append("  ".join(v.ljust(widths[0]) if i == 0 else v.rjust(widths[i]) for i, v in enumerate(r)))

    pp, ps = parlour["paced"], parlour["saturated"]
    persisted = ps.get("persisted_per_s") or 0
    targets = [
        ("(a) p99 < 150 ms with no errors", pp["p99"] < 150 and pp["error_count"] == 0,
         f"p99 {fmt(pp['p99'])} ms, {pp['error_count']} errors"),
        ("(b) >= 150 persisted moves/s", persisted >= 150, f"{fmt(persisted, 0)} moves/s"),
        ("(b) server CPU < 5 ms per move", ps["server_cpu_ms_per_move"] < 5,
         f"{fmt(ps['server_cpu_ms_per_move'], 2)} ms"),
    ]
    parts = parlour.get("breakdown")
    if parts:
        total = ps["server_cpu_ms_per_move"]
        sync_ms = sum(ms for _, ms in parts)
        out_parts = [f"  {ms:6.2f} ms  {name}" for name, ms in parts]
        out_parts.append(f"  {total - sync_ms:6.2f} ms  the rest of daphne's {total:.2f} ms per move in (b): "
                         "receive, thread hops, group sends, forwarding frames to sockets")
    else:
        out_parts = []
    errors = {k: v for k, v in {**parlour["setup_errors"], **pp["errors"], **ps["errors"]}.items() if v}
    out = [
        f"Machine: {machine['nproc']} cores (nproc), {machine['cpu']}, Python {machine['python']}, "
        f"Linux {machine['kernel']}; load average {machine['load_before']} before the run, "
        f"{services.load_average()} after (other work on the machine slows throughput and "
        f"latency; CPU per move is daphne's own time)",
        f"Run: {args.matches} four-seat Ludo matches ({4 * args.matches} sockets), one daphne, "
        f"{parlour['database']} database, embedded Redis (pub/sub channel layer); (a) "
        f"{args.paced_seconds:g} s, (b) {args.saturate_seconds:g} s, each after {args.warmup:g} s warm-up",
        f"Frames per move: public {parlour['public_frame_bytes']} B to 4 sockets, seat "
        f"{parlour['seat_frame_bytes']} B to each seat (the ceiling sends the same sizes)",
        "",
        *lines,
        "",
        "Targets (2 cores, one server process):",
        *(f"  {'MET ' if ok else 'MISSED'}  {name}: {detail}" for name, ok, detail in targets),
    ]
    if errors:
        out.append(f"Errors by kind: {errors}")
    if out_parts:
        out += ["", "Server CPU per move, by part (synchronous parts timed alone in the driver):", *out_parts]
    return "\n".join(out)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="Live play under load: real WebSockets, one daphne.")
    parser.add_argument("--matches", type=int, default=200, help="four-seat matches (default 200)")
    parser.add_argument("--rate", type=float, default=100, help="offered moves/s in (a) (default 100)")
    parser.add_argument("--paced-seconds", type=float, default=40, help="(a) window (default 40)")
    parser.add_argument("--saturate-seconds", type=float, default=30, help="(b) window (default 30)")
    parser.add_argument("--warmup", type=float, default=5, help="unmeasured seconds before each window")
    parser.add_argument("--timeout", type=float, default=10, help="a round trip lost after this many s")
    parser.add_argument("--seed", type=int, default=1, help="seed of the clients' move choices")
    parser.add_argument("--no-ceiling", action="store_true", help="skip the bare websockets server")
    parser.add_argument("--no-breakdown", action="store_true", help="skip the per-part cost breakdown")
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
    try:
        parlour = run_parlour(args)
        ceiling = None
        if not args.no_ceiling:
            ceiling = run_ceiling(args, parlour["public_frame_bytes"] or 8000,
                                  parlour["seat_frame_bytes"] or 600)
    except KeyboardInterrupt:
        print("Interrupted; every service stopped.", file=sys.stderr)
        return 130
    print()
    print(report(args, machine, parlour, ceiling))
    print(f"\nTotal time {time.perf_counter() - start:.0f} s.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
