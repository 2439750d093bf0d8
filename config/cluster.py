"""``make cluster``: the production layout on this machine's loopback.

WEB_PROCESSES uvicorn processes (default 2; config.servers.production_argv) on
ports CLUSTER_PORT+1.., each
pinned to its own core (config.servers.pinned; WEB_PIN=0 leaves them to the
scheduler), behind
nginx on CLUSTER_PORT (default 8100) when nginx is installed, Celery workers
for the deadlines, the computers' moves and the default queue
(config/workers.py), one Celery beat, and the embedded Redis unless
REDIS_URL is set. Use PostgreSQL
(DATABASE_URL) for more than one web process in earnest; SQLite works, with
its single writer. supervisord (config/supervisor.py) runs them and starts
any that exits again; its files are in var/cluster/. Ctrl-C stops everything.
"""

import os
import secrets
import shlex
import shutil
import sys
from pathlib import Path

from config import servers
from config.supervisor import Program, serve


def _address(where: int | str) -> str:
    """``host:port`` for nginx: a bare port (an int) is one on 127.0.0.1."""
    return f"127.0.0.1:{where}" if isinstance(where, int) else where


def nginx_config(var: Path, listen: int | str, ports: list[int | str], proxy_secret: str) -> Path:
    """Write var/nginx.conf from deploy/nginx.conf.template (nginx on
    ``listen`` in front of the web processes ``ports``, sending
    ``proxy_secret``, the web processes' TRUSTED_PROXY_SECRET, in
    X-Parlour-Proxy); returns its path. ``listen`` and each of ``ports``: a
    port on 127.0.0.1 (an int), or what nginx takes as written (``listen``:
    ``port`` or ``address:port``; a web process: ``host:port``, the layout
    across machines, config/hosts.py). The file is readable by its owner
    only: it holds the secret."""
    template = Path(__file__).resolve().parent.parent / "deploy" / "nginx.conf.template"
    # max_fails=0: nginx never takes a web process out of the rotation for
    # failed requests (by default one failure does, for 10 s). A handshake
    # reset while the database was away took both out at once and the whole
    # site answered 502 after the database was back. A process that is down
    # refuses the connection at once and nginx tries the next.
    upstreams = "\n".join(f"        server {_address(p)} max_fails=0;" for p in ports)
    text = template.read_text().format(upstreams=upstreams, listen=_address(listen), var=var,
                                       proxy_secret=proxy_secret)
    path = var / "nginx.conf"
    path.touch(mode=0o600)
    path.chmod(0o600)
    path.write_text(text)
    return path


def new_proxy_secret() -> str:
    """A fresh TRUSTED_PROXY_SECRET: 64 hex digits."""
    return secrets.token_hex(32)


def find_nginx() -> str | None:
    """Path of the nginx binary, or None when it is not installed."""
    return shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def programs(var: Path, base: int, webs: int, *, pin: bool, nginx: str | None,
             proxy_secret: str = "") -> list[Program]:
    """The cluster's processes: redis (when embedded), web1..web<webs> on
    ports ``base``+1.., the ``deadlines``, ``live`` and ``default`` workers, beat, and
    ``proxy`` (nginx on ``base``, its configuration written into ``var``,
    sending ``proxy_secret``) when ``nginx`` is a path."""
    from django.conf import settings

    from config import embedded_redis, workers

    py = sys.executable
    found = []
    if not os.environ.get("REDIS_URL"):
        sock = settings.EMBEDDED_REDIS_SOCKET
        sock.parent.mkdir(parents=True, exist_ok=True)
        # A Redis that was killed leaves its socket file; redis-server replaces it.
        found.append(Program("redis", shlex.join(embedded_redis.command(sock)), priority=100))
    ports = [base + 1 + i for i in range(webs)]
    for i, port in enumerate(ports, 1):
        argv = servers.production_argv("127.0.0.1", port)
        found.append(Program(f"web{i}", shlex.join(servers.pinned(argv, i - 1) if pin else argv)))
    found += [Program(name, shlex.join(argv)) for name, argv in workers.production_workers().items()]
    found.append(Program("beat", shlex.join([py, "-m", "celery", "-A", "config", "beat", "-l", "info",
                                             "-s", str(var / "celerybeat-schedule")])))
    if nginx:
        conf = nginx_config(var, base, ports, proxy_secret)
        # Started after the web processes and stopped before them.
        # One process (no master): an nginx master killed outright leaves its
        # workers holding the port, and supervisord could not start a new one.
        argv = [nginx, "-c", str(conf), "-g", "daemon off; master_process off;"]
        found.append(Program("proxy", shlex.join(argv),
                             priority=900))
    return found


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings

    base = int(os.environ.get("CLUSTER_PORT", "8100"))
    webs = int(os.environ.get("WEB_PROCESSES", "2"))
    var = settings.CLUSTER_DIR
    var.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    nginx = find_nginx()
    secret = ""
    if nginx:
        # Behind nginx the client's address is its X-Forwarded-For entry, on the
        # requests that carry nginx's secret (a new one each start); without
        # nginx nothing in front is trusted (core/proxy.py).
        secret = new_proxy_secret()
        env.update(TRUSTED_PROXY_COUNT="1", TRUSTED_PROXY_SECRET=secret)
    found = programs(var, base, webs, pin=os.environ.get("WEB_PIN", "1") != "0", nginx=nginx,
                     proxy_secret=secret)
    ports = [base + 1 + i for i in range(webs)]
    if nginx:
        where = f"http://127.0.0.1:{base}/ (nginx) over uvicorn on ports {ports}"
    else:
        where = f"uvicorn on ports {ports} (install nginx for the proxy on port {base})"
    print(f"\n  Parlour cluster: {where}. Ctrl-C stops everything.\n", flush=True)
    serve(found, var, env)


if __name__ == "__main__":
    main()
