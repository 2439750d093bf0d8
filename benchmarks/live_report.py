"""What ``make bench-live`` and ``make bench-peer`` print (benchmarks/live.py):
``summarise`` turns a window's stats into a result, ``brief`` is its progress
line, ``report`` the table of Parlour's layouts beside the bare websockets
ceiling, ``peer_report`` Parlour's first layout beside boardgame.io."""

from __future__ import annotations

import math

from benchmarks import live_services as services
from benchmarks.live_client import Stats


def summarise(stats: Stats, cpu: dict[str, float]) -> dict:
    moves = len(stats.rtts)

    def per_move(name: str) -> float | None:
        if name not in cpu:
            return None
        return 1000 * cpu[name] / moves if moves else float("nan")

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
        "server_cpu_ms_per_move": per_move("server"),
        "server_cpu_percent": 100 * cpu["server"] / stats.seconds,
        "redis_cpu_ms_per_move": per_move("redis"),
        "database_cpu_ms_per_move": per_move("database"),
        "driver_cpu_percent": stats.driver_cpu_percent,
        "user_rows_per_move": stats.user_frames["row"] / moves if moves else float("nan"),
        "user_notes_per_move": stats.user_frames["note"] / moves if moves else float("nan"),
        "user_bytes_per_move": stats.user_bytes / moves if moves else float("nan"),
    }


def brief(r: dict) -> str:
    persisted = f", {r['persisted_per_s']:.0f} persisted/s" if "persisted_per_s" in r else ""
    return (f"{r['moves_per_s']:.0f} moves/s{persisted}, p50 {r['p50']:.0f} ms, p99 {r['p99']:.0f} ms, "
            f"{r['error_count']} errors, server {r['server_cpu_ms_per_move']:.2f} ms CPU/move "
            f"({r['server_cpu_percent']:.0f}% of a core), driver {r['driver_cpu_percent']:.0f}%")


def fmt(value, digits: int = 1) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:,.{digits}f}"


def ratio(ours, theirs) -> str:
    if not ours or not theirs or any(isinstance(v, float) and math.isnan(v) for v in (ours, theirs)):
        return "-"
    return f"{ours / theirs:.2f}x"


class _Table:
    """The report's table: a row per figure, a column per layout, then the
    ceiling's column and, for a single layout beside the ceiling, their ratio."""

    def __init__(self, runs: list[dict], ceiling: dict | None):
        self.runs, self.ceiling = runs, ceiling
        # The ceiling's column, and the ratio column of a single layout, only when the ceiling ran.
        self.single = len(runs) == 1 and ceiling is not None
        self.rows: list[list[str]] = []

    def section(self, title: str) -> None:
        self.rows.append([title] + [""] * (len(self.runs) + (self.ceiling is not None) + self.single))

    def row(self, label, get, get_ceiling=None, digits=1, with_ratio=True):
        """One line: ``get(run)`` per layout, ``get_ceiling(ceiling)`` (default ``get``)."""
        ours = [get(r) for r in self.runs]
        theirs = (get_ceiling or get)(self.ceiling) if self.ceiling else None
        cells = [label, *(fmt(v, digits) for v in ours)]
        if self.ceiling is not None:
            cells.append(fmt(theirs, digits))
        if self.single:
            cells.append(ratio(ours[0], theirs) if with_ratio else "")
        self.rows.append(cells)

    def lines(self) -> list[str]:
        header = ["", *(r["label"] for r in self.runs)] \
            + (["bare websockets"] if self.ceiling is not None else []) + (["ratio"] if self.single else [])
        widths = [max(len(r[i]) for r in [header, *self.rows]) for i in range(len(header))]

        def line(cells: list[str]) -> str:
            return "  ".join(v.ljust(widths[0]) if i == 0 else v.rjust(widths[i])
                             for i, v in enumerate(cells))

        return [line(header), "  ".join("-" * w for w in widths), *(line(r) for r in self.rows)]


def _window_rows(t: _Table, key: str, title: str) -> None:
    """The rows of one measured window, ``key`` "paced" (a) or "saturated" (b)."""
    t.section(title)
    t.row("  moves/s persisted (DB rows, actor seat)", lambda r: r[key].get("persisted_per_s"),
          lambda c: c[key]["moves_per_s"], 0)
    t.row("  moves/s (round trips completed)", lambda r: r[key]["moves_per_s"], digits=0)
    for p in ("p50", "p95", "p99"):
        t.row(f"  round trip {p} (ms)", lambda r, p=p: r[key][p])
    t.row("  round trip max (ms)", lambda r: r[key]["max"], with_ratio=False)
    t.row("  errors", lambda r: r[key]["error_count"], digits=0, with_ratio=False)
    t.row("  server CPU per move (ms, all processes)", lambda r: r[key]["server_cpu_ms_per_move"], digits=2)
    t.row("  server CPU (% of one core, all processes)", lambda r: r[key]["server_cpu_percent"],
          digits=0, with_ratio=False)
    t.row("  redis CPU per move (ms)", lambda r: r[key]["redis_cpu_ms_per_move"], digits=2, with_ratio=False)
    t.row("  PostgreSQL CPU per move (ms, private server)",
          lambda r: r[key]["database_cpu_ms_per_move"], digits=2, with_ratio=False)
    t.row("  driver (clients) CPU (% of one core)", lambda r: r[key]["driver_cpu_percent"],
          digits=0, with_ratio=False)
    if key == "paced":
        t.row("  paced slots with no match ready", lambda r: r[key]["missed_slots"], digits=0,
              with_ratio=False)
    t.row("  finished matches replaced", lambda r: r[key]["replaced"], digits=0, with_ratio=False)
    t.row("  user-socket rows per move (Your matches)", lambda r: r[key].get("user_rows_per_move"),
          lambda c: None, digits=2, with_ratio=False)
    t.row("  user-socket notes per move (your turn)", lambda r: r[key].get("user_notes_per_move"),
          lambda c: None, digits=2, with_ratio=False)
    t.row("  user-socket bytes per move", lambda r: r[key].get("user_bytes_per_move"),
          lambda c: None, digits=0, with_ratio=False)


def _idle_rows(t: _Table) -> None:
    t.section("idle sockets")
    t.row("  sockets connected", lambda r: r["sockets"], digits=0, with_ratio=False)
    t.row("  of them user sockets (/ws/notify/)", lambda r: r.get("user_sockets"), digits=0, with_ratio=False)
    t.row("  server RSS with all idle (MiB, all processes)", lambda r: r["rss_idle_bytes"] / 2**20,
          with_ratio=False)
    t.row("  server memory per idle socket (KiB)", lambda r: r["bytes_per_socket"] / 1024)
    t.row("  time to connect all (s)", lambda r: r["connect_seconds"], with_ratio=False)


def _ratios(runs: list[dict], c: dict | None, single: bool) -> list[str]:
    """Each layout against the ceiling, when there are several layouts (one has the ratio column)."""
    if not c or single:
        return []
    ratios = ["", "Each layout against the bare websockets ceiling (layout / ceiling):"]
    for r in runs:
        a, b, cb = r["paced"], r["saturated"], c["saturated"]
        ratios.append(
            f"  {r['label']}: (a) p99 {ratio(a['p99'], c['paced']['p99'])}; "
            f"(b) persisted moves/s {ratio(b.get('persisted_per_s'), cb['moves_per_s'])}; "
            f"(b) CPU per move {ratio(b['server_cpu_ms_per_move'], cb['server_cpu_ms_per_move'])}"
        )
    return ratios


def _targets(first: dict) -> list[str]:
    """The live-play targets, MET or MISSED, for the first layout."""
    pp, ps = first["paced"], first["saturated"]
    persisted = ps.get("persisted_per_s") or 0
    targets = [
        ("(a) p99 < 150 ms with no errors", pp["p99"] < 150 and pp["error_count"] == 0,
         f"p99 {fmt(pp['p99'])} ms, {pp['error_count']} errors"),
        ("(b) >= 150 persisted moves/s", persisted >= 150, f"{fmt(persisted, 0)} moves/s"),
        ("(b) server CPU < 5 ms per move", ps["server_cpu_ms_per_move"] < 5,
         f"{fmt(ps['server_cpu_ms_per_move'], 2)} ms"),
    ]
    processes_note = "" if first["processes"] == 1 else f"; this layout has {first['processes']} processes"
    return [
        f"Targets (2 cores, one server process), checked for the first layout only ({first['label']}; "
        f"the live-play targets are for one server process{processes_note}):",
        *(f"  {'MET' if ok else 'MISSED':6}  {name}: {detail}" for name, ok, detail in targets),
    ]


def _breakdown(parlour: dict, first: dict) -> list[str]:
    """The first layout's CPU per move by part, when the breakdown ran."""
    parts = parlour.get("breakdown")
    if not parts:
        return []
    total = first["saturated"]["server_cpu_ms_per_move"]
    sync_ms = sum(ms for _, ms in parts)
    return ["", f"Server CPU per move, by part (synchronous parts timed alone in the driver; "
                f"{first['label']}):",
            *(f"  {ms:6.2f} ms  {name}" for name, ms in parts),
            f"  {total - sync_ms:6.2f} ms  the rest of {first['label']}'s {total:.2f} ms per "
            "move in (b): receive, thread hops, group sends, forwarding frames to sockets"]


def _describe(r: dict) -> str:
    n = r["processes"]
    ports = ", ".join(str(p) for p in r["ports"])
    return (f"{r['label']} = {n} {r['kind']} process{'es' if n > 1 else ''} "
            f"(port{'s' if n > 1 else ''} {ports})")


def _preamble(args, machine: dict, parlour: dict) -> list[str]:
    """What ran: the machine, the database, the layouts, the load and the frames."""
    runs = parlour["runs"]
    first = runs[0]
    spread = ("; seat i of a match connects to the (i mod N)-th process of its layout" if
              any(r["processes"] > 1 for r in runs) else "")
    return [
        f"Machine: {machine['nproc']} cores (nproc), {machine['cpu']}, Python {machine['python']}, "
        f"Linux {machine['kernel']}; load average {machine['load_before']} before the run, "
        f"{services.load_average()} after (other work on the machine slows throughput and "
        f"latency; CPU per move is the server processes' own time)",
        f"Database: {parlour['database']}; embedded Redis (pub/sub channel layer) shared by every process",
        f"Layouts, one after another: {'; '.join(_describe(r) for r in runs)}{spread}. CPU and memory "
        "are sums over a layout's processes; "
        + ("processes left to the scheduler (--no-pin)" if args.no_pin else
           "process i pinned to the i-th core as in production (the ceiling like process 0)"),
        f"Run: {args.matches} four-seat Ludo matches ({4 * args.matches} match sockets"
        + ("" if args.no_user_sockets else f" and {4 * args.matches} user sockets watching Your matches")
        + ") per layout, fresh "
        f"matches for each; (a) {args.paced_seconds:g} s, (b) {args.saturate_seconds:g} s, each after "
        f"{args.warmup:g} s warm-up",
        f"Frames per move: one per socket, the public update (mean {first['public_frame_bytes']} B, median "
        f"{first['public_frame_median']} B) or, to a seat whose controls changed, the public update and its "
        f"controls (mean {first['seat_frame_bytes']} B, median {first['seat_frame_median']} B); a match's "
        "first update after the server started is whole (games.frames.wire); "
        "the ceiling sends the mean sizes",
    ]


def _problems(r: dict) -> list[str]:
    """A layout's errors by kind and its server processes that exited, if any."""
    out = []
    errors = {k: v for k, v in {**r["setup_errors"], **r["paced"]["errors"],
                                **r["saturated"]["errors"]}.items() if v}
    if errors:
        out.append(f"Errors by kind ({r['label']}): {errors}")
    if r["exited"]:
        out.append(f"Server processes that EXITED during {r['label']}: {', '.join(r['exited'])}")
    return out


def report(args, machine: dict, parlour: dict, ceiling: dict | None) -> str:
    """The table of ``make bench-live``: every layout of ``parlour`` (run_parlour)
    beside the bare websockets ``ceiling`` (None: not run), the targets, errors
    and the CPU breakdown."""
    runs = parlour["runs"]
    t = _Table(runs, ceiling)
    for key, title in (("paced", f"(a) offered {args.rate:g} moves/s"), ("saturated", "(b) saturation")):
        _window_rows(t, key, title)
    _idle_rows(t)
    out = [*_preamble(args, machine, parlour), "", *t.lines(), *_ratios(runs, ceiling, t.single), "",
           *_targets(runs[0])]
    for r in runs:
        out += _problems(r)
    out += _breakdown(parlour, runs[0])
    return "\n".join(out)


def peer_report(args, ours: dict, peer: dict) -> str:
    """Parlour's run ``ours`` (one layout's result, run_layout) beside the
    peer's (run_peer), with the ratio Parlour / boardgame.io: what ran, the
    table, the peer's errors by kind."""
    rows: list[list[str]] = []

    def section(title: str) -> None:
        rows.append([title, "", "", ""])

    def row(label, mine, theirs, digits=1, with_ratio=True):
        rows.append([label, fmt(mine, digits), fmt(theirs, digits),
                     ratio(mine, theirs) if with_ratio else ""])

    def errors(r: dict) -> str:
        lost = r["errors"].get("round trip timed out", 0)
        return f"{r['error_count']:,} ({lost:,})"

    for key, title in (("saturated", "(b) saturation"), ("paced", f"(a) offered {args.rate:g} moves/s")):
        mine, theirs = ours[key], peer[key]
        section(title)
        if key == "saturated":
            row("  moves/s (Parlour: persisted, Move rows of seats)", mine.get("persisted_per_s"),
                theirs["moves_per_s"], 0)
        row("  moves/s (round trips completed)", mine["moves_per_s"], theirs["moves_per_s"], 0)
        if key == "saturated":
            row("  server CPU per move (ms)", mine["server_cpu_ms_per_move"],
                theirs["server_cpu_ms_per_move"], 2)
            row("  server CPU (% of one core)", mine["server_cpu_percent"], theirs["server_cpu_percent"], 0,
                with_ratio=False)
        if theirs.get("database_cpu_ms_per_move") is not None:
            row("  PostgreSQL CPU per move (ms)", mine.get("database_cpu_ms_per_move"),
                theirs["database_cpu_ms_per_move"], 2)
        for p in ("p50", "p95", "p99"):
            row(f"  round trip {p} (ms)", mine[p], theirs[p])
        rows.append(["  errors (of them round trips lost)", errors(mine), errors(theirs), ""])
        row("  driver (clients) CPU (% of one core)", mine["driver_cpu_percent"],
            theirs["driver_cpu_percent"], 0, with_ratio=False)
    section("idle sockets")
    row("  sockets connected", ours["sockets"], peer["sockets"], 0, with_ratio=False)
    row("  server memory per idle socket (KiB)", ours["bytes_per_socket"] / 1024,
        peer["bytes_per_socket"] / 1024)
    row("  time to connect all (s)", ours["connect_seconds"], peer["connect_seconds"], with_ratio=False)
    section("a move's frame to each socket (bytes, mean)")
    row("  to a watching seat (Parlour: the public frame)", ours["public_frame_bytes"],
        peer["update_frame_bytes"], 0)
    row("  to a seat whose controls changed (Parlour: with them)", ours["seat_frame_bytes"],
        peer["update_frame_bytes"], 0)
    if ours.get("public_frame_median"):
        row("  Parlour's public update, median (a match's first is whole)", ours["public_frame_median"],
            peer["update_frame_bytes"], 0)

    header = ["", f"Parlour {ours['label']}", peer["label"], "Parlour / peer"]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(v.ljust(widths[0]) if i == 0 else v.rjust(widths[i]) for i, v in enumerate(cells))

    v = peer["versions"]
    pinned = ("left to the scheduler (--no-pin)" if args.no_pin else
              "pinned to one core like Parlour's process 0")
    storage = ("its default in-memory storage, nothing persisted" if peer.get("storage") == "in memory"
               else "its matches in PostgreSQL with bgio-postgres, on the same server as Parlour's (it sends "
                    "a move's update before its write, Parlour after its commit)")
    out = [
        f"Parlour beside the peer, in the same run: boardgame.io {v['boardgame.io']} on Node {v['node']} "
        f"(socket.io {v['socket.io']}, WebSocket transport; {storage}"
        f"; the whole state as JSON to every socket on each move), one server process {pinned}; "
        f"{args.matches} four-seat matches of a dice game with Ludo's turn shape (benchmarks/peer/game.js), "
        f"one boardgame.io Client (socket.io-client {v['socket.io-client']}) per seat in a separate Node "
        "process; the same windows and warm-up as Parlour's",
    ]
    if ours.get("user_sockets"):
        out.append(f"Parlour's {ours['sockets']} sockets include {ours['user_sockets']} user sockets "
                   "(/ws/notify/, one per seat); its memory per socket divides by all of them")
    out += ["", line(header), "  ".join("-" * w for w in widths), *(line(r) for r in rows)]
    kinds = {k: n for k, n in {**peer["setup_errors"], **peer["paced"]["errors"],
                               **peer["saturated"]["errors"]}.items() if n}
    if kinds:
        out.append(f"Errors by kind ({peer['label']}): {kinds}")
    if peer["exited"]:
        out.append("The peer server EXITED during the run")
    return "\n".join(out)
