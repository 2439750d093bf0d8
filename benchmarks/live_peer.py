"""The peer for ``make bench-peer`` (``benchmarks.live --peer``): boardgame.io.

boardgame.io (the version ``benchmarks/peer/package-lock.json`` pins) is
installed with ``npm ci`` into ``var/peer/`` when its ``node_modules`` is
missing or the lockfile changed. Its server (``benchmarks/peer/server.js``:
boardgame.io's ``Server``, socket.io, its matches in memory or, given a
PostgreSQL URL, stored with bgio-postgres) runs pinned to one
core as Parlour's server is; a separate Node process
(``benchmarks/peer/client.js``: one boardgame.io ``Client`` per seat) plays it
with the load shape of Parlour's run. The driver stops at each point where a
figure is read (the baseline memory, all sockets idle, each window's start and
end) until this side has read the server's CPU time and memory from ``/proc``
exactly as for Parlour's servers (``live_services.cpu_seconds``,
``rss_bytes``).
"""

from __future__ import annotations

import collections
import json
import os
import queue
import signal
import subprocess
import threading

from benchmarks import live_services as services
from benchmarks.live_client import Stats
from config import servers

SOURCE = services.ROOT / "benchmarks" / "peer"
PEER_DIR = services.ROOT / "var" / "peer"
NODE_MODULES = PEER_DIR / "node_modules"


def install() -> None:
    """Install the locked boardgame.io into ``var/peer/`` unless it is there
    from the same lockfile; RuntimeError without ``node`` and ``npm``, or when
    ``npm ci`` fails."""
    services.npm_install(SOURCE, PEER_DIR, "boardgame.io")


def versions() -> dict[str, str]:
    """The installed boardgame.io, socket.io (server) and socket.io-client, and node."""
    found = {}
    for package in ("boardgame.io", "socket.io", "socket.io-client"):
        try:
            found[package] = json.loads((NODE_MODULES / package / "package.json").read_text())["version"]
        except (OSError, ValueError, KeyError):
            found[package] = "?"
    out = subprocess.run(["node", "--version"], capture_output=True, text=True, check=False)
    found["node"] = out.stdout.strip() or "?"
    return found


def node_env() -> dict[str, str]:
    """Node finds var/peer's packages from benchmarks/peer/; production mode, as
    deployed (boardgame.io logs nothing per move then)."""
    return dict(os.environ, NODE_PATH=str(NODE_MODULES), NODE_ENV="production")


def start_server(port: int, core: int | None = None, database_url: str | None = None) -> services.Service:
    """boardgame.io's server (benchmarks/peer/server.js) on 127.0.0.1:``port``,
    answering its Lobby API; ``core``: pinned like Parlour's server process
    (config.servers.pinned); ``database_url``: its matches stored in that
    PostgreSQL database (bgio-postgres), else in memory. RuntimeError when it
    does not come up."""
    argv = ["node", str(SOURCE / "server.js"), str(port), *([database_url] if database_url else [])]
    svc = services.Service("peer-server", argv if core is None else servers.pinned(argv, core), node_env())
    try:
        services.wait_http(f"http://127.0.0.1:{port}/games", svc)
    except BaseException:
        svc.stop()
        raise
    return svc


def window_stats(window: dict) -> Stats:
    """A window of client.js (seconds, round trips in s, errors ...) as live_client's Stats."""
    return Stats(
        started=0.0, ended=window["seconds"], cpu_started=0.0,
        cpu_ended=window["driver_cpu_seconds"] or 0.0, sent=window["sent"], rtts=window["rtts"],
        errors=collections.Counter(window["errors"]), missed_slots=window["missed_slots"],
        replaced=window["replaced"],
    )


class Driver:
    """client.js in its own process group, its JSON lines read by a thread."""

    def __init__(self, options: dict):
        services.BENCH_DIR.mkdir(parents=True, exist_ok=True)
        self.log_path = services.BENCH_DIR / "peer-client.log"
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            ["node", str(SOURCE / "client.js"), json.dumps(options)], cwd=services.ROOT, env=node_env(),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, text=True, bufsize=1,
            start_new_session=True,
        )
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def next(self, timeout: float) -> dict:
        """The next message; RuntimeError when the driver exits or stays silent ``timeout`` s."""
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise RuntimeError(f"the peer's driver said nothing for {timeout:.0f} s") from None
        if line is None:
            self.proc.wait(10)
            raise RuntimeError(f"the peer's driver exited ({self.proc.returncode}):\n"
                               f"{self.log_path.read_text(errors='replace')[-3000:]}")
        return json.loads(line)

    def ack(self) -> None:
        self.proc.stdin.write("ok\n")
        self.proc.stdin.flush()

    def stop(self) -> None:
        """End the driver (it has said all it will) and close its pipes and log."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(10)
        for pipe in (self.proc.stdin, self.proc.stdout):
            try:
                pipe.close()
            except OSError:  # a broken pipe
                pass
        self._log.close()


def play(args, pid: int, port: int, extra_cpu: dict | None = None) -> dict:
    """Drive the peer server ``pid`` on 127.0.0.1:``port`` with client.js:
    ``args.matches`` matches, (a) paced at ``args.rate`` moves/s for
    ``args.paced_seconds``, (b) saturation for ``args.saturate_seconds``, each
    after ``args.warmup`` s. Returns the
    server's RSS before connecting and with every socket idle (bytes), the
    sockets, the connect time (s), the mean update frame (bytes), and for
    "paced" and "saturated" the window's Stats, the server's CPU seconds
    over it, and those of each ``extra_cpu`` reader (name -> a function returning
    CPU seconds, e.g. the PostgreSQL server's). RuntimeError when the driver fails."""
    options = {"port": port, "matches": args.matches, "rate": args.rate,
               "paced_seconds": args.paced_seconds, "saturate_seconds": args.saturate_seconds,
               "warmup": args.warmup, "timeout": args.timeout, "seed": args.seed}
    silence = max(args.paced_seconds, args.saturate_seconds) + args.warmup + 300
    result: dict = {"windows": {}}
    cpu_at: dict[str, float] = {}
    extra_at: dict[str, dict[str, float]] = {}
    extra_cpu = extra_cpu or {}
    driver = Driver(options)
    try:
        while True:
            message = driver.next(silence)
            if "say" in message:
                print(f"  {message['say']}", flush=True)
                continue
            if "result" in message:
                result.update(message["result"])
                return result
            name = message["mark"]
            cpu_at[name] = services.cpu_seconds(pid)
            extra_at[name] = {key: read() for key, read in extra_cpu.items()}
            if name == "base":
                result["rss_base_bytes"] = services.rss_bytes(pid)
            elif name == "idle":
                rss = result["rss_idle_bytes"] = services.rss_bytes(pid)
                result.update(sockets=message["sockets"], connect_seconds=message["connect_seconds"])
                print(f"  {message['sockets']} sockets connected in {message['connect_seconds']:.1f} s; "
                      f"RSS {result['rss_base_bytes'] / 2**20:.1f} -> {rss / 2**20:.1f} MiB", flush=True)
            elif name == "paced-start":
                print(f"  (a) {args.rate:g} moves/s offered for {args.paced_seconds:g} s ...", flush=True)
            elif name == "saturated-start":
                print(f"  (b) saturation for {args.saturate_seconds:g} s ...", flush=True)
            elif name.endswith("-end"):
                window = name.removesuffix("-end")
                stats = window_stats(message["window"])
                cpu = cpu_at[name] - cpu_at[f"{window}-start"]
                extra = {key: extra_at[name][key] - extra_at[f"{window}-start"][key] for key in extra_cpu}
                result["windows"][window] = (stats, cpu, extra)
                moves = len(stats.rtts)
                print(f"      {stats.moves_per_second:.0f} moves/s, p50 {stats.percentile_ms(50):.0f} ms, "
                      f"p99 {stats.percentile_ms(99):.0f} ms, {sum(stats.errors.values())} errors, server "
                      f"{1000 * cpu / moves if moves else float('nan'):.2f} ms CPU/move "
                      f"({100 * cpu / stats.seconds:.0f}% of a core), "
                      f"driver {stats.driver_cpu_percent:.0f}%", flush=True)
            driver.ack()
    finally:
        driver.stop()

