"""A process that dies comes back by itself, and the rest keep running:
``make cluster`` (python -m config.cluster) and ``make run`` (python -m
config.run) started for real, on the test database, with their own Redis,
ports and folder; then a Celery worker, a web process (uvicorn in make cluster, daphne in
make run) and Redis are SIGKILLed one
after another, and a human's move and the computer's answer still go through
the site after each (README, "Production layout")."""

import itertools
import os
import shutil
import signal
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from games.engine import get_rules
from games.models import Match, Move
from tests import services
from tests.factories import ludo_state, make_match

pytestmark = [pytest.mark.slow, pytest.mark.resilience, pytest.mark.ci_postgresql_only]

_layouts = itertools.count(1)


def _stat(pid: int | str) -> tuple[str, int, int] | None:
    """(state, parent pid, start time in clock ticks) of a process, or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return fields[0], int(fields[1]), int(fields[19])


def processes_under(root: int) -> dict[int, tuple[int, list[str], int]]:
    """pid -> (parent pid, argv, start time) of every living process below ``root``."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        stat = _stat(entry)
        try:
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if stat is not None and stat[0] != "Z":
            table[int(entry)] = (stat[1], [a.decode(errors="replace") for a in argv if a], stat[2])
    below, frontier = {}, [root]
    while frontier:
        parent = frontier.pop()
        for pid, row in table.items():
            if row[0] == parent and pid not in below:
                below[pid] = row
                frontier.append(pid)
    return below


def alive(pid: int, started: int) -> bool:
    """Whether process ``pid`` that started at ``started`` (not a later one that reuses the pid) runs."""
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z" and stat[2] == started


class Layout:
    """``python -m <module>`` as ``make`` starts it, in a folder of its own
    (its supervisord files, Redis socket and beat schedule), with the roles
    of its processes told apart by their command lines."""

    def __init__(self, module: str, folder: str, roles: dict, **env):
        self.dir = services.LOG_DIR.parent / f"layout-{next(_layouts)}"
        self.conf = self.dir / folder / "supervisord.conf"
        self.roles = roles
        environ = services.service_env(
            PARLOUR_TEST_RUN_DIR=str(self.dir),
            PARLOUR_TEST_REDIS_URL=f"unix://{self.dir / 'redis.sock'}",
            **env,
        )
        # Its own embedded Redis, which the test kills, whatever the session uses.
        environ.pop("REDIS_URL", None)
        environ.pop("CELERY_BROKER_URL", None)
        self.svc = services.Service(module.rsplit(".", 1)[-1], [sys.executable, "-m", module], environ)
        self.seen: dict[int, int] = {}  # pid -> start time, of every process it ran

    def pids(self, role: str) -> list[int]:
        """Every process of ``role`` (a Celery worker's pool included), its main one first."""
        match = self.roles[role]
        below = processes_under(self.svc.proc.pid)
        self.seen.update((pid, row[2]) for pid, row in below.items())
        found = {pid: ppid for pid, (ppid, argv, _) in below.items() if match(argv)}
        return sorted(found, key=lambda pid: found[pid] in found)

    def main_pid(self, role: str) -> int | None:
        pids = self.pids(role)
        return pids[0] if pids else None

    def kill(self, role: str) -> int:
        """SIGKILL the main process of ``role`` and its children; returns its pid."""
        pids = self.pids(role)
        assert pids, f"no {role} process is running:\n{self.svc.log()[-3000:]}"
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        return pids[0]

    def supervised(self) -> dict[str, tuple[str, int]]:
        """supervisord's view: program name -> (state name, pid)."""
        from xmlrpc.client import ServerProxy

        from supervisor.xmlrpc import SupervisorTransport

        sock = f"unix://{self.conf.parent / 'supervisor.sock'}"
        proxy = ServerProxy("http://localhost", transport=SupervisorTransport(None, None, sock))
        return {p["name"]: (p["statename"], p["pid"]) for p in proxy.supervisor.getAllProcessInfo()}

    def wait_all_running(self, timeout: float = 60) -> dict[str, int]:
        """Wait until supervisord reports every role RUNNING; returns role -> pid."""

        def running():
            if not self.svc.alive():
                raise AssertionError(f"{self.svc.name} exited:\n{self.svc.log()[-3000:]}")
            try:
                status = self.supervised()
            except OSError:
                return None
            if set(status) == set(self.roles) and all(s == "RUNNING" for s, _ in status.values()):
                return {name: pid for name, (_, pid) in status.items()}
            return None

        return services.wait_for(running, timeout, interval=0.3, what=f"every program of {self.svc.name}")

    def wait_restarted(self, role: str, old: int, timeout: float = 60) -> int:
        """Wait until a new ``role`` process (not ``old``) runs; returns its pid."""

        def back():
            if not self.svc.alive():
                raise AssertionError(f"{self.svc.name} exited:\n{self.svc.log()[-3000:]}")
            pid = self.main_pid(role)
            return pid if pid not in (None, old) else None

        return services.wait_for(back, timeout, interval=0.2, what=f"{role} to come back after SIGKILL")

    def stop(self, sig=signal.SIGTERM, timeout: float = 40) -> None:
        """Stop it with ``sig`` (SIGINT is Ctrl-C) and check that no process it started is left."""
        self.pids_now()
        if self.svc.alive():
            os.kill(self.svc.proc.pid, sig)
            try:
                self.svc.proc.wait(timeout)
            except Exception:
                pass
        left = sorted(pid for pid, started in self.seen.items() if alive(pid, started))
        self.svc.stop()
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        assert not left, f"processes outlived {self.svc.name}: {left}"

    def pids_now(self) -> None:
        self.seen.update((pid, row[2]) for pid, row in processes_under(self.svc.proc.pid).items())


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=3) as r:
            return r.status == 200
    except (urllib.error.URLError, OSError):
        return False


def free_ports(count: int) -> int:
    """A port ``p`` with ``p``..``p+count-1`` all free right now on 127.0.0.1,
    below Linux's ephemeral range (32768..), where every other test's
    ``free_port`` and every outgoing connection takes its ports."""
    import random
    import socket

    for _ in range(200):
        base = random.randrange(20000, 32000 - count)
        try:
            for p in range(base, base + count):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", p))
            return base
        except OSError:
            continue
    raise AssertionError(f"no {count} consecutive free ports")


def computer_moves(match) -> int:
    return Move.objects.filter(match=match, actor="seat", seat=1).count()


def human_and_computer_play(base: str, match, user, timeout: float = 30) -> None:
    """Over a new WebSocket to ``base``: the human (seat 0) moves until the
    computer (seat 1, through the live Celery worker) has answered and the
    turn is back, and the socket received the frame of that position.
    Raises AssertionError or TimeoutError when that does not happen in time."""
    rules = get_rules("ludo")
    before = computer_moves(match)
    player = services.WsPlayer(base, user).connect(match.public_id)
    try:
        player.until(lambda f: 'data-kind="snapshot"' in f, timeout=timeout)
        deadline = time.monotonic() + timeout
        sent = None
        while time.monotonic() < deadline:
            m = Match.objects.get(pk=match.pk)
            assert m.status == "active", m.status
            state = rules.load(m.state)
            if computer_moves(match) > before and rules.to_move(state) == 0:
                player.until_version(m.version, timeout=max(deadline - time.monotonic(), 0.1))
                return
            if rules.to_move(state) == 0 and sent != m.version:
                player.send(move=str(rules.legal_moves(state)[0]), version=str(m.version))
                sent = m.version
                player.until_version(m.version + 1, timeout=max(deadline - time.monotonic(), 0.1))
            else:
                time.sleep(0.1)
        raise AssertionError(f"the computer did not answer within {timeout} s")
    finally:
        player.close()


class Table:
    """A Ludo match of a human (seat 0) against an easy computer (seat 1)."""

    def __init__(self):
        self.new()

    def new(self):
        self.match = make_match(seats=("human", "easy"), state=ludo_state(), turn_seconds=600)
        self.user = self.match.seats.get(index=0).user

    def keeps_playing(self, base: str, timeout: float) -> None:
        """``human_and_computer_play`` until it succeeds once, within ``timeout``
        s: right after a restart a socket or a frame may be lost (the page
        reconnects and catches up), and so may the computer's task when Redis
        comes back empty (then play on in a new match)."""
        from websockets.exceptions import WebSocketException

        def once():
            try:
                human_and_computer_play(base, self.match, self.user, timeout=15)
                return True
            except (AssertionError, TimeoutError, OSError, WebSocketException):
                m = Match.objects.get(pk=self.match.pk)
                rules = get_rules("ludo")
                if m.status != "active" or rules.to_move(rules.load(m.state)) != 0:
                    self.new()
                return False

        services.wait_for(once, timeout, interval=0.5,
                          what=f"a human move and the computer's answer via {base}")


def is_python_module(argv, module, *words):
    return argv[1:3] == ["-m", module] and all(w in argv for w in words)


@pytest.fixture
def cluster(transactional_db):
    base = free_ports(3)
    roles = {
        "redis": lambda argv: bool(argv) and "redis-server" in argv[0],
        "web1": lambda argv: is_python_module(argv, "uvicorn", str(base + 1)),  # the production server
        "web2": lambda argv: is_python_module(argv, "uvicorn", str(base + 2)),
        "deadlines": lambda argv: is_python_module(argv, "celery", "worker", "deadlines@%h"),
        "live": lambda argv: is_python_module(argv, "celery", "worker", "live@%h"),
        "default": lambda argv: is_python_module(argv, "celery", "worker", "default@%h"),
        "beat": lambda argv: is_python_module(argv, "celery", "beat"),
    }
    if shutil.which("nginx") or Path("/usr/sbin/nginx").exists():  # as config/cluster.py finds it
        roles["proxy"] = lambda argv: bool(argv) and Path(argv[0].split(":")[0]).name == "nginx"
        url = f"http://127.0.0.1:{base}"
    else:
        url = f"http://127.0.0.1:{base + 1}"
    layout = Layout("config.cluster", "cluster", roles, CLUSTER_PORT=str(base), WEB_PROCESSES="2")
    try:
        services.wait_for(lambda: healthy(url), 90, interval=0.3, what="the cluster to answer /healthz")
        services.wait_for(lambda: all(layout.main_pid(r) for r in roles), 60, what="every process")
        yield layout, url, base
    finally:
        layout.stop(signal.SIGTERM)


def test_cluster_processes_killed_one_after_another_each_come_back_and_moves_flow(cluster):
    layout, url, base = cluster
    table = Table()
    table.keeps_playing(url, 60)
    others = {role: layout.main_pid(role) for role in layout.roles}

    # A Celery worker (the live queue's, which plays the computers' moves).
    killed = layout.kill("live")
    assert layout.wait_restarted("live", killed) != killed
    for role in ("web1", "web2", "beat", "redis"):
        assert layout.main_pid(role) == others[role], f"{role} was restarted too"
    table.keeps_playing(url, 60)

    # A web process: it comes back on its port, and the site serves meanwhile.
    killed = layout.kill("web1")
    table.keeps_playing(url, 60)
    layout.wait_restarted("web1", killed)
    services.wait_for(lambda: healthy(f"http://127.0.0.1:{base + 1}"), 60, interval=0.3,
                      what="the restarted web1 to answer /healthz")
    table.keeps_playing(f"http://127.0.0.1:{base + 1}", 60)
    assert layout.main_pid("web2") == others["web2"]

    # The proxy, its main process only (as an operator's kill -9 would): it
    # comes back on its port (an nginx master's workers outlived it and held
    # the port; config/cluster.py runs nginx as one process).
    if "proxy" in layout.roles:
        killed = layout.main_pid("proxy")
        os.kill(killed, signal.SIGKILL)
        layout.wait_restarted("proxy", killed)
        services.wait_for(lambda: healthy(url), 60, interval=0.3, what="the restarted nginx to answer")
        table.keeps_playing(url, 60)

    # Redis: it comes back empty; the web processes and workers recover
    # (a worker that exits on the lost connection is restarted in turn).
    killed = layout.kill("redis")
    layout.wait_restarted("redis", killed)
    table.keeps_playing(url, 90)

    status = layout.wait_all_running()
    assert status["redis"] != killed


@pytest.fixture
def make_run(transactional_db):
    port = free_ports(1)
    roles = {
        "redis": lambda argv: bool(argv) and "redis-server" in argv[0],
        "web": lambda argv: is_python_module(argv, "daphne", str(port)),
        "worker": lambda argv: is_python_module(argv, "celery", "worker", "worker@%h"),
        "deadlines": lambda argv: is_python_module(argv, "celery", "worker", "deadlines@%h"),
        "beat": lambda argv: is_python_module(argv, "celery", "beat"),
    }
    layout = Layout("config.run", "run", roles, HOST="127.0.0.1", PORT=str(port))
    url = f"http://127.0.0.1:{port}"
    try:
        services.wait_for(lambda: healthy(url), 90, interval=0.3, what="make run to answer /healthz")
        services.wait_for(lambda: all(layout.main_pid(r) for r in roles), 60, what="every process")
        yield layout, url
    finally:
        # Ctrl-C.
        layout.stop(signal.SIGINT)


def test_make_run_restarts_a_killed_worker_and_leaves_the_rest_running(make_run):
    layout, url = make_run
    others = {role: layout.main_pid(role) for role in ("web", "beat", "redis")}
    killed = layout.kill("worker")
    layout.wait_restarted("worker", killed)
    time.sleep(1)  # a launcher that stops everything when one process ends has done so by now
    for role, pid in others.items():
        assert layout.main_pid(role) == pid, f"{role} did not keep running"
    assert healthy(url)
    Table().keeps_playing(url, 60)  # the new worker plays the computer's move
    layout.wait_all_running()
