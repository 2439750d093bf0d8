"""The ASGI server command lines every launcher shares (``make run``,
``make cluster``, the tests' real servers, ``make bench-live``), so each runs
the site the same way. deploy/Procfile writes the same flags out by hand.
"""

from __future__ import annotations

import os
import shutil
import sys

#: Largest WebSocket message the server reads at all, in bytes. The match and
#: room sockets refuse anything over PARLOUR_WS_MAX_FRAME (4 KB) with 4009;
#: beyond this the server drops the connection before reading the message
#: into memory (daphne: no close frame, the client sees 1006; uvicorn: 1009).
#: daphne (autobahn) also refuses to SEND a message over it, and drops the
#: connection instead: the match socket packs its frames into messages of
#: at most games.frames.wire.MESSAGE_BYTES (48 KB), one frame alone may be
#: larger (a late Rondo board is about 50 KB), so this leaves room.
WS_MAX_MESSAGE = 256 * 1024


# Neither server is given --proxy-headers, behind a proxy too: daphne's takes
# the leftmost X-Forwarded-For entry, which the client wrote (nginx appends the
# address it saw). The application reads the proxy's headers itself, only when
# TRUSTED_PROXY_COUNT says a proxy is there (core/proxy.py).


def daphne_argv(host: str, port: int | str) -> list[str]:
    """``python -m daphne`` serving config.asgi on ``host``:``port``."""
    return [sys.executable, "-m", "daphne", "-b", host, "-p", str(port),
            "--websocket-max-message-size", str(WS_MAX_MESSAGE), "config.asgi:application"]


def uvicorn_argv(host: str, port: int | str) -> list[str]:
    """``python -m uvicorn`` (uvloop, httptools, the ``websockets`` protocol;
    no lifespan: channels' router has none; ``--no-proxy-headers``: uvicorn
    would otherwise read X-Forwarded-* from 127.0.0.1; ``--no-access-log``: the
    proxy's access log is the one, and it holds no query strings) serving config.asgi."""
    return [sys.executable, "-m", "uvicorn", "--host", host, "--port", str(port),
            "--loop", "uvloop", "--http", "httptools", "--ws", "websockets",
            "--ws-max-size", str(WS_MAX_MESSAGE), "--lifespan", "off", "--no-proxy-headers",
            "--no-access-log", "config.asgi:application"]


#: The server of the production layout (deploy/Procfile, deploy/supervisord.conf,
#: ``make cluster``): uvicorn, chosen by ``make bench-live-cluster`` (README
#: "Production layout"). ``make run`` and the test suite keep daphne.
production_argv = uvicorn_argv


def pinned(argv: list[str], index: int) -> list[str]:
    """``argv`` (a web server command line) run on one core only: web process
    ``index`` (0-based) gets the ``index``-th of the cores this process may
    use, round robin, through util-linux ``taskset``. ``argv`` unchanged when
    there is no ``taskset``.

    Why: a web process is an event loop and an action thread that take turns
    holding the GIL many times per move. Left to the scheduler, the two sit on
    different cores and every hand-over moves the interpreter's working set
    between caches: a move cost about 1.3 ms more CPU time in saturation
    (docs/benchmarks.md, "Fourth round"). One GIL-bound process uses one core
    at most anyway, so production runs one pinned web process per core
    (deploy/Procfile, ``make cluster``)."""
    taskset = shutil.which("taskset")
    if taskset is None:
        return argv
    cores = sorted(os.sched_getaffinity(0))
    return [taskset, "--cpu-list", str(cores[index % len(cores)]), *argv]
