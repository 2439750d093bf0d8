"""Real processes for the tests: daphne, Celery worker and beat.

Each is started as a subprocess with ``config.test_settings``, pointed at the
test database (never the development one) and the test Redis, and stopped
(SIGTERM, then SIGKILL) when its fixture ends.
"""

import itertools
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from django.db import connection

from config import servers

ROOT = Path(__file__).resolve().parent.parent
LOG_DIR = Path(os.environ.get("PARLOUR_TEST_RUN_DIR", ROOT / "var" / "test")) / "logs"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_database_url() -> str:
    """DATABASE_URL of the test database the current pytest session created."""
    sd = connection.settings_dict
    if sd["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{Path(sd['NAME']).resolve()}"
    user = sd.get("USER") or ""
    password = sd.get("PASSWORD") or ""
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = sd.get("HOST") or "localhost"
    port = f":{sd['PORT']}" if sd.get("PORT") else ""
    return f"postgres://{auth}{host}{port}/{sd['NAME']}"


def service_env(**extra: str) -> dict:
    """Environment for a service process: test settings, test database, test Redis."""
    env = dict(os.environ)
    # The browser tests allow sync ORM calls in their own thread; servers never do.
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.update(
        DJANGO_SETTINGS_MODULE="config.test_settings",
        DATABASE_URL=test_database_url(),
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


_started = itertools.count(1)


def _log_name(name: str) -> str:
    """``<n>-<name>-<test>.log``: one file per process started, named after the
    test that started it, so a failing run keeps every service's own log."""
    test = os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0].rsplit("::", 1)[-1]
    test = re.sub(r"[^A-Za-z0-9_.-]+", "_", test)[:80]
    return f"{next(_started):03d}-{name}{'-' + test if test else ''}.log"


class Service:
    """A subprocess with its output in ``var/test/logs/<n>-<name>-<test>.log``."""

    def __init__(self, name: str, argv: list[str], env: dict):
        LOG_DIR.mkdir(parents=True, exist_ok=True)
        self.name = name
        self.url: str | None = None  # a web process's base URL (start_daphne)
        self.log_path = LOG_DIR / _log_name(name)
        # Append mode: supervisord writes its programs' output by reopening its
        # own stdout (/dev/stdout), and only appends keep the two from overwriting.
        self._log = open(self.log_path, "ab")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self, sig=signal.SIGKILL) -> None:
        """Signal the whole process group (a Celery worker's pool children too)."""
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:
            pass

    def stop(self, timeout: float = 10) -> None:
        if self.alive():
            self.kill(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill(signal.SIGKILL)
                self.proc.wait(5)
        self.kill(signal.SIGKILL)  # stragglers in the group
        self._log.close()


def http_status(url: str, timeout: float = 20) -> int:
    """The HTTP status of a GET of ``url`` (an error status too, not raised)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def wait_for(predicate, timeout: float, interval: float = 0.1, what: str = "condition"):
    """Poll ``predicate`` until it returns a truthy value; raise AssertionError after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


def run_python(code: str, timeout: float = 60, **env) -> str:
    """Run ``code`` in a new Python process with Django set up (test settings,
    the test database, ``env``); returns its output, raises AssertionError if it fails."""
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT, env=service_env(**env), capture_output=True, text=True, timeout=timeout,
    )
    if result.returncode:
        raise AssertionError(f"python -c {code!r} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def procfile_argv(name: str, port: int) -> list[str]:
    """The command line of process ``name`` in deploy/Procfile (what
    production runs), with this interpreter for ``python``, ``port`` for its
    ``-p``/``--port`` and without its ``taskset`` pinning prefix."""
    import shlex

    for line in (ROOT / "deploy" / "Procfile").read_text().splitlines():
        if line.startswith(f"{name}:"):
            argv = shlex.split(line.split(":", 1)[1])
            break
    else:
        raise AssertionError(f"deploy/Procfile has no {name!r} process")
    if argv[0] == "taskset":
        argv = argv[3:]  # taskset --cpu-list N
    argv[0] = sys.executable if argv[0] == "python" else argv[0]
    for flag in ("-p", "--port"):
        if flag in argv:
            argv[argv.index(flag) + 1] = str(port)
    return argv


def _wait_healthy(svc: Service, url: str, what: str) -> None:
    def up():
        if not svc.alive():
            raise AssertionError(f"{what} exited:\n{svc.log()}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as r:
                return r.status == 200
        except (urllib.error.URLError, OSError):
            return False

    wait_for(up, 30, what=f"{what} to answer /healthz")


def start_daphne(name: str = "daphne", port: int | None = None, *, argv: list[str] | None = None,
                 wait: bool = True, **env) -> tuple[Service, str]:
    """Start daphne serving config.asgi on ``port`` (default: a free one) with
    ``argv`` (default: config.servers.daphne_argv, as ``make run`` and
    ``make cluster`` start it); returns (service, base URL) once /healthz
    answers 200. ``wait=False`` returns at once: ``wait_ready`` waits later,
    so that processes a test needs together start side by side."""
    port = port or free_port()
    svc = Service(name, argv or servers.daphne_argv("127.0.0.1", port), service_env(**env))
    url = f"http://127.0.0.1:{port}"
    svc.url = url
    if wait:
        wait_ready(svc)
    return svc, url


def wait_ready(*svcs: Service) -> None:
    """Wait until each of ``svcs``, started with ``wait=False``, is ready: a
    web process answers /healthz, a Celery worker has logged "ready."."""
    for svc in svcs:
        if svc.url:
            _wait_healthy(svc, svc.url, svc.name)
        else:
            wait_for(lambda svc=svc: "ready." in svc.log() or not svc.alive(), 60,
                     what=f"celery worker {svc.name}")
            if not svc.alive():
                raise AssertionError(f"celery worker {svc.name} exited:\n{svc.log()}")


NGINX = "/usr/sbin/nginx"
#: The TRUSTED_PROXY_SECRET of this session's proxied web processes and nginx.
PROXY_SECRET = "test-proxy-secret-" + os.urandom(8).hex()


def behind_proxy(count: int = 1) -> dict[str, str]:
    """The environment of a web process behind ``count`` trusted proxies that
    send PROXY_SECRET (core/proxy.py)."""
    return {"TRUSTED_PROXY_COUNT": str(count), "TRUSTED_PROXY_SECRET": PROXY_SECRET}


def start_nginx(upstream_ports: list[int], name: str = "nginx") -> tuple[Service, str]:
    """Start nginx (NGINX) on a free port with deploy/nginx.conf.template
    (config.cluster.nginx_config, sending PROXY_SECRET) in front of the web
    processes on ``upstream_ports``; returns (service, base URL) once /healthz
    answers 200 through it. Its files live in this session's log folder."""
    from config.cluster import nginx_config

    port = free_port()
    var = LOG_DIR / f"{name}-{port}"
    var.mkdir(parents=True, exist_ok=True)
    conf = nginx_config(var, port, upstream_ports, PROXY_SECRET)
    svc = Service(name, [NGINX, "-e", str(var / "nginx-error.log"), "-c", str(conf), "-g", "daemon off;"],
                  dict(os.environ))
    url = f"http://127.0.0.1:{port}"
    _wait_healthy(svc, url, name)
    return svc, url


def task_queues() -> tuple[str, ...]:
    """The test Celery queues (config/workers.py): default, live, deadlines."""
    from config import workers

    return tuple(workers.queues()[name] for name in ("default", "live", "deadlines"))


def purge_task_queues() -> None:
    """Empty the test Celery queues: tasks left by earlier tests name matches that are gone."""
    from config.celery import app

    with app.connection_for_write() as conn:
        for queue in task_queues():
            conn.default_channel.queue_purge(queue)


def consume(svc: Service) -> None:
    """Have worker ``svc`` take tasks from the test queues again (settle_worker
    stopped it); a worker that does not answer is started anew."""
    from config.celery import app

    for queue in task_queues():
        if not app.control.add_consumer(queue, destination=[svc.node], reply=True, timeout=3, limit=1):
            raise AssertionError(f"the worker {svc.node} did not answer add_consumer:\n{svc.log()[-3000:]}")


def start_celery_worker(name: str = "celery-worker", concurrency: int = 1, *, shared: bool = False,
                        wait: bool = True, **env) -> Service:
    """Start a Celery worker on the test queue; waits until it is ready
    (``wait=False``: ``wait_ready`` does, later). A worker of a test's own
    first stops the session's shared one (they would share the queues, and
    its tasks)."""
    if not shared:
        stop_shared_worker()
    node = f"{name}-{os.getpid()}@{socket.gethostname()}"
    svc = Service(
        name,
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-l", "info",
         "-c", str(concurrency), "-Q", ",".join(task_queues()),
         "-n", node, "--without-gossip", "--without-mingle"],
        service_env(**env),
    )
    svc.node = node
    if wait:
        wait_ready(svc)
    return svc


def start_layout_workers(argvs: dict[str, list[str]], **env) -> dict[str, Service]:
    """Start a layout's Celery workers (``argvs``: name -> command line, as
    config/workers.py gives them, on the test queues), each under a node name
    of this test process's own; waits until every one is ready. Stops the
    session's shared worker first (it would take their tasks)."""
    stop_shared_worker()
    started = {}
    for name, argv in argvs.items():
        node = f"{name}-{os.getpid()}@{socket.gethostname()}"
        argv = list(argv)
        argv[argv.index("-n") + 1] = node
        svc = Service(f"celery-{name}", [*argv, "--without-gossip", "--without-mingle"],
                      service_env(**env))
        svc.node = node
        started[name] = svc
    for svc in started.values():
        wait_for(lambda svc=svc: "ready." in svc.log() or not svc.alive(), 60, what=f"worker {svc.node}")
        if not svc.alive():
            raise AssertionError(f"celery worker {svc.node} exited:\n{svc.log()}")
    return started


_shared_worker: Service | None = None


def shared_celery_worker() -> Service:
    """The test session's shared Celery worker (tests/conftest.py
    ``celery_worker``), started when none is running."""
    global _shared_worker
    if _shared_worker is None or not _shared_worker.alive():
        _shared_worker = start_celery_worker("celery-worker-shared", shared=True)
    return _shared_worker


#: Tasks settle_worker revoked in the shared worker (it holds them until their time).
_revoked: set[str] = set()


def stop_shared_worker() -> None:
    """Stop the shared worker if it runs. A worker that stops hands back the
    tasks it held (Redis restores unacknowledged ones): those it holds are the
    revoked ones of earlier tests, taken out of the queues again here; the
    running test's own queued tasks stay."""
    global _shared_worker
    if _shared_worker is not None:
        if _shared_worker.alive():
            _shared_worker.stop()
            _drop_revoked()
        _shared_worker = None


def _drop_revoked() -> None:
    import json

    from config.celery import app

    if not _revoked:
        return
    with app.connection_for_write() as conn:
        client = conn.default_channel.client
        for queue in task_queues():
            for raw in client.lrange(queue, 0, -1):
                try:
                    task_id = json.loads(raw)["headers"]["id"]
                except (ValueError, KeyError, TypeError):
                    continue
                if task_id in _revoked:
                    client.lrem(queue, 1, raw)
    _revoked.clear()


def settle_worker(svc: Service, timeout: float = 30) -> None:
    """After a test: no task of the test is left to run in ``svc`` later.
    Queued ones are purged; the ones the worker holds for later (a countdown)
    or has taken are revoked; the running ones are waited for. A worker that
    does not answer is stopped instead (the next test starts another)."""
    from config.celery import app

    if not svc.alive():
        purge_task_queues()
        return
    # It stops taking tasks from the queues until the next test that asks for a
    # worker (consume): a test without one finds its tasks queued, as it would.
    for queue in task_queues():
        if not app.control.cancel_consumer(queue, destination=[svc.node], reply=True, timeout=3, limit=1):
            stop_shared_worker() if svc is _shared_worker else svc.stop()
            return
    purge_task_queues()
    inspect = app.control.inspect(destination=[svc.node], timeout=3, limit=1)
    held = []
    for call in (inspect.scheduled, inspect.reserved):
        replies = call()
        if replies is None:
            stop_shared_worker() if svc is _shared_worker else svc.stop()
            return
        for entry in replies.get(svc.node, []):
            held.append(entry.get("request", entry)["id"])
    if held:
        app.control.revoke(held, destination=[svc.node])
        _revoked.update(held)
    deadline = time.monotonic() + timeout
    while True:
        active = inspect.active()
        if active is not None and not active.get(svc.node):
            break
        if active is None or time.monotonic() > deadline:
            stop_shared_worker() if svc is _shared_worker else svc.stop()
            return
        time.sleep(0.05)
    purge_task_queues()


def start_celery_beat(name: str = "celery-beat", **env) -> Service:
    """Start Celery beat with a throwaway schedule file."""
    schedule = LOG_DIR / f"{name}-schedule"
    return Service(
        name,
        [sys.executable, "-m", "celery", "-A", "config", "beat", "-l", "info", "-s", str(schedule)],
        service_env(**env),
    )


def close_codes(base_url: str, user, public_id: str, sizes) -> list[int | None]:
    """For each of ``sizes``: open a match socket of ``user`` on ``public_id``,
    read its snapshot, send one text frame of that many bytes and read until
    the server closes; the close code it sent each time (None: no close
    frame, the client saw 1006)."""
    from websockets.exceptions import ConnectionClosed

    codes = []
    for size in sizes:
        probe = WsPlayer(base_url, user).connect(public_id)
        probe.receive()
        try:
            probe.ws.send("x" * size)
            while True:
                probe.ws.recv(timeout=10)
        except ConnectionClosed as e:
            codes.append(e.rcvd.code if e.rcvd else None)
        probe.close()
    return codes


class WsPlayer:
    """A real WebSocket client (the ``websockets`` package) on a match socket,
    logged in as ``user`` (None: anonymous), with the Origin a browser sends."""

    def __init__(self, base_url: str, user=None):
        from django.conf import settings
        from django.test import Client

        self.base_url = base_url
        self.headers = []
        if user is not None:
            client = Client()
            client.force_login(user)
            cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
            self.headers.append(("Cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}"))
        self.ws = None
        self.frames: list[str] = []

    def connect(self, public_id: str, open_timeout: float = 10):
        from websockets.sync.client import connect

        url = self.base_url.replace("http://", "ws://") + f"/ws/match/{public_id}/"
        self._connection = connect(url, origin=self.base_url, additional_headers=self.headers,
                                   proxy=None, open_timeout=open_timeout)
        self.ws = self._connection.__enter__()
        return self

    def send(self, **message) -> None:
        import json

        self.ws.send(json.dumps(message))

    def receive(self, timeout: float = 10) -> str:
        text = self.ws.recv(timeout=timeout)
        self.frames.append(text)
        return text

    def until(self, predicate, timeout: float = 10) -> str:
        """Receive frames until ``predicate(frame)`` holds; returns that frame."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            missed = f"no matching frame within {timeout} s; last: {self.frames[-1:]}"
            if left <= 0:
                raise AssertionError(missed)
            try:
                frame = self.receive(left)
            except TimeoutError:
                raise AssertionError(missed) from None
            if predicate(frame):
                return frame

    def until_version(self, version: int, timeout: float = 10) -> str:
        return self.until(
            lambda f: f'data-version="{version}"' in f and 'data-kind="error"' not in f, timeout)

    def until_version_at_least(self, version: int, timeout: float = 10) -> int:
        """Receive frames until one shows ``version`` or a later one; returns the version seen."""
        def seen(frame):
            found = re.search(r'data-version="(\d+)"', frame)
            return found is not None and int(found.group(1)) >= version and 'data-kind="error"' not in frame

        return int(re.search(r'data-version="(\d+)"', self.until(seen, timeout)).group(1))

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
