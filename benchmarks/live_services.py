"""Processes for ``make bench-live``: the embedded Redis, a private
PostgreSQL (``--database postgres``), the ASGI server processes (daphne or
uvicorn), the bare ``websockets`` ceiling server; and what ``/proc`` says
about them (CPU seconds, resident memory) and about the machine.

Everything listens on loopback or a unix socket under ``var/bench/``. Each
process runs in its own process group so that ``stop()`` ends it with all of
its children, also after an error or Ctrl-C.
"""

from __future__ import annotations

import fcntl
import os
import platform
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from config import servers

ROOT = Path(__file__).resolve().parent.parent
BENCH_DIR = ROOT / "var" / "bench"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def npm_install(source: Path, target: Path, what: str) -> None:
    """``npm ci`` of ``source``'s package.json and package-lock.json into
    ``target`` (its ``node_modules``), unless it is there from the same
    lockfile. ``what`` names it in messages. RuntimeError without ``node``
    and ``npm``, or when ``npm ci`` fails."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        raise RuntimeError(f"{what} needs Node.js and npm (apt-get install nodejs npm)")
    target.mkdir(parents=True, exist_ok=True)
    # Two runs at once install one after the other: npm ci empties node_modules first.
    with open(target / ".install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        lockfile = (source / "package-lock.json").read_bytes()
        installed = target / "package-lock.json"
        if (target / "node_modules").is_dir() and installed.exists() and installed.read_bytes() == lockfile:
            return
        print(f"Installing {what} into {target.relative_to(ROOT)} (npm ci) ...", flush=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copyfile(source / name, target / name)
        out = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--silent"], cwd=target,
                             capture_output=True, text=True, timeout=600, check=False)
        if out.returncode:
            installed.unlink(missing_ok=True)  # the next run tries again
            raise RuntimeError(f"npm ci in {target} failed ({out.returncode}):\n{out.stdout}\n{out.stderr}")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env(redis_socket: Path, database_url: str) -> dict[str, str]:
    """Environment of daphne and of the driver's own Django: production
    settings (DEBUG off) on loopback, the benchmark's Redis and database."""
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        SECURE_HSTS_SECONDS="0",
        REDIS_URL=f"unix://{redis_socket}",
        DATABASE_URL=database_url,
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    return env


class Service:
    """A subprocess in its own process group, output in ``var/bench/<name>.log``."""

    def __init__(self, name: str, argv: list[str], env: dict | None = None):
        BENCH_DIR.mkdir(parents=True, exist_ok=True)
        self.name = name
        self.log_path = BENCH_DIR / f"{name}.log"
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def log_tail(self, chars: int = 3000) -> str:
        return self.log_path.read_text(errors="replace")[-chars:]

    def stop(self, timeout: float = 10) -> None:
        """SIGTERM the process group, SIGKILL what is left after ``timeout`` s."""
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                self.proc.wait(timeout)
                break
            except subprocess.TimeoutExpired:
                continue
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # stragglers in the group
        except ProcessLookupError:
            pass
        self._log.close()


def start_redis(socket_path: Path) -> Service:
    """The embedded redis-server on ``socket_path`` (no TCP port, no disk)."""
    from config import embedded_redis

    socket_path.parent.mkdir(parents=True, exist_ok=True)
    socket_path.unlink(missing_ok=True)
    svc = Service("redis", embedded_redis.command(socket_path))
    try:
        embedded_redis.wait_until_up(f"unix://{socket_path}")
    except TimeoutError:
        svc.stop()
        raise
    return svc


def migrate(env: dict) -> None:
    """``manage.py migrate`` against the benchmark database; raises on failure."""
    out = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )
    if out.returncode:
        raise RuntimeError(f"migrate failed:\n{out.stdout}\n{out.stderr}")


def wait_http(url: str, svc: Service, timeout: float = 30) -> None:
    """Poll ``url`` until it answers 200; raises RuntimeError if ``svc`` dies or time runs out."""
    deadline = time.monotonic() + timeout
    while True:
        if not svc.alive():
            raise RuntimeError(f"{svc.name} exited:\n{svc.log_tail()}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{svc.name} did not answer {url} within {timeout} s:\n{svc.log_tail()}")
        time.sleep(0.1)


SERVERS = ("daphne", "uvicorn")


def server_argv(server: str, port: int) -> list[str]:
    """The command line of ONE ASGI server process serving config.asgi on
    127.0.0.1:``port``: daphne (Twisted), or uvicorn (uvloop, httptools, the
    ``websockets`` protocol; no lifespan: channels' router has none)."""
    if server == "daphne":
        return servers.daphne_argv("127.0.0.1", port)
    if server == "uvicorn":
        argv = servers.uvicorn_argv("127.0.0.1", port)
        return [*argv[:-1], "--no-access-log", "--log-level", "warning", argv[-1]]
    raise ValueError(f"unknown server {server!r}; one of {SERVERS}")


def start_server(server: str, port: int, env: dict, core: int | None = None) -> Service:
    """ONE ``server`` process (see server_argv) on 127.0.0.1:``port``, up and
    healthy; with ``core``, pinned as production pins its web processes
    (config.servers.pinned: the ``core``-th usable core, round robin)."""
    argv = server_argv(server, port)
    svc = Service(f"{server}-{port}", argv if core is None else servers.pinned(argv, core), env)
    try:
        wait_http(f"http://127.0.0.1:{port}/healthz", svc)
    except BaseException:
        svc.stop()
        raise
    return svc


def start_daphne(port: int, env: dict) -> Service:
    """ONE daphne process serving config.asgi on 127.0.0.1:``port``, up and healthy."""
    return start_server("daphne", port, env)


def start_ceiling(port: int, public_bytes: int, seat_bytes: int, core: int | None = None) -> Service:
    """The bare ``websockets`` broadcast server (benchmarks/live_ceiling.py);
    ``core``: pinned like Parlour's server (see start_server)."""
    argv = [sys.executable, "-m", "benchmarks.live_ceiling", "--port", str(port),
            "--public-bytes", str(public_bytes), "--seat-bytes", str(seat_bytes)]
    svc = Service("ceiling", argv if core is None else servers.pinned(argv, core),
                  dict(os.environ, PYTHONUNBUFFERED="1"))
    deadline = time.monotonic() + 15
    while True:
        if not svc.alive():
            raise RuntimeError(f"ceiling server exited:\n{svc.log_tail()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return svc
        except OSError:
            if time.monotonic() > deadline:
                svc.stop()
                raise RuntimeError("ceiling server did not listen within 15 s") from None
            time.sleep(0.05)


# -- a private PostgreSQL ------------------------------------------------------

PG_DIR = BENCH_DIR / "pg"
PG_USER = "parlour"
PG_DATABASE = "parlour"


def postgres_bin() -> Path:
    """Debian's newest ``/usr/lib/postgresql/<version>/bin``; RuntimeError if none."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin"),
                   key=lambda p: [int(x) for x in p.parent.name.split(".") if x.isdigit()])
    if not found:
        raise RuntimeError("no PostgreSQL under /usr/lib/postgresql (apt-get install postgresql), "
                           "or set DATABASE_URL to a postgres:// URL")
    return found[-1]


class Postgres:
    """A throw-away PostgreSQL server under ``root`` (default ``var/bench/pg``).

    ``initdb --auth=trust`` into ``root/data``, then ``pg_ctl start`` on
    127.0.0.1 at a free port, its unix socket in ``root``, its log in
    ``root/server.log``; otherwise PostgreSQL's defaults (fsync and
    synchronous_commit on). PostgreSQL refuses to run as root, so as root the
    directory is given to the ``postgres`` user and initdb/pg_ctl run through
    ``runuser -u postgres --`` (as .ci/run does with su). ``stop()`` is a fast
    shutdown and is safe to call at any point, also after a failed start.
    """

    def __init__(self, root: Path = PG_DIR):
        self.bin = postgres_bin()
        self.root = root
        self.data = root / "data"
        self.log_path = root / "server.log"
        self.port = 0
        self.as_owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    @property
    def url(self) -> str:
        return f"postgres://{PG_USER}@127.0.0.1:{self.port}/{PG_DATABASE}"

    @property
    def version(self) -> str:
        """E.g. "PostgreSQL 15.18"."""
        out = subprocess.run([str(self.bin / "postgres"), "--version"], capture_output=True, text=True,
                             check=False).stdout.split()
        return f"PostgreSQL {out[2]}" if len(out) > 2 else "PostgreSQL"

    @property
    def pid(self) -> int | None:
        """The postmaster's pid (first line of ``postmaster.pid``), or None when not running."""
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def _run(self, *argv: str, timeout: float = 120) -> None:
        out = subprocess.run([*self.as_owner, *argv], cwd=ROOT, capture_output=True, text=True,
                             timeout=timeout, check=False, start_new_session=True)
        if out.returncode:
            log = self.log_path.read_text(errors="replace")[-2000:] if self.log_path.exists() else ""
            raise RuntimeError(f"{Path(argv[0]).name} failed ({out.returncode}):\n{out.stdout}\n"
                               f"{out.stderr}\n{log}")

    def start(self) -> Postgres:
        """initdb, start, ``CREATE DATABASE parlour``; raises RuntimeError on failure."""
        import psycopg

        self.root.mkdir(parents=True, exist_ok=True)
        if self.as_owner:
            shutil.chown(self.root, user="postgres", group="postgres")
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", PG_USER, "--auth=trust",
                  "-E", "UTF8", "--no-sync")
        self.port = free_port()
        options = f"-p {self.port} -k {shlex.quote(str(self.root))} -c listen_addresses=127.0.0.1"
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log_path), "-w",
                  "-t", "60", "-o", options, "start")
        with psycopg.connect(host="127.0.0.1", port=self.port, user=PG_USER, dbname="postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{PG_DATABASE}"')
        return self

    def stop(self) -> None:
        """Fast shutdown (clients disconnected); SIGQUIT, then SIGKILL, if that fails."""
        pid = self.pid
        if pid is None:
            return
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "-t", "30",
                      "stop", timeout=40)
            return
        except (RuntimeError, subprocess.TimeoutExpired):
            pass
        for sig in (signal.SIGQUIT, signal.SIGKILL):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                return
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and Path(f"/proc/{pid}").exists():
                time.sleep(0.1)


def stop_stale_postgres(root: Path = PG_DIR) -> None:
    """Stop a PostgreSQL an interrupted earlier run left in ``root``, before its files go."""
    if (root / "data" / "postmaster.pid").exists():
        try:
            Postgres(root).stop()
        except RuntimeError:
            pass


# -- /proc ---------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds used so far by process ``pid`` (its threads included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    # After the ")" that ends comm, field 3 (state) is index 0: utime is field 14, stime 15.
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds of process ``pid``, its reaped children (cutime + cstime) and
    its live children (their own and their reaped children's): e.g. a
    postmaster with its backends and background workers. A child that exits
    moves its time into the parent's cutime, so the sum only grows."""

    def fields(stat: str) -> list[str]:
        return stat.rsplit(")", 1)[1].split()

    own = fields(Path(f"/proc/{pid}/stat").read_text())
    total = sum(int(own[i]) for i in (11, 12, 13, 14))  # utime stime cutime cstime
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            child = fields((entry / "stat").read_text())
        except OSError:  # exited meanwhile
            continue
        if int(child[1]) == pid:  # ppid
            total += sum(int(child[i]) for i in (11, 12, 13, 14))
    return total / CLOCK_TICKS


def rss_bytes(pid: int) -> int:
    """Resident set size of process ``pid`` in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def load_average() -> str:
    """The 1, 5 and 15 minute load averages (other work on the machine)."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def machine() -> dict[str, str]:
    """nproc, the CPU model (/proc/cpuinfo), Python version, kernel."""
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "nproc": str(len(os.sched_getaffinity(0))),
        "cpu": model,
        "python": platform.python_version(),
        "kernel": platform.release(),
    }
