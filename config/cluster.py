"""``make cluster``: the production layout on this machine's loopback.

WEB_PROCESSES daphne processes (default 2) on ports CLUSTER_PORT+1.., each
pinned to its own core (config.servers.pinned; WEB_PIN=0 leaves them to the
scheduler), behind
nginx on CLUSTER_PORT (default 8100) when nginx is installed, Celery workers
for the live queue (deadlines, computer moves) and the default queue, one
Celery beat, and the embedded Redis unless REDIS_URL is set. Use PostgreSQL
(DATABASE_URL) for more than one web process in earnest; SQLite works, with
its single writer. Ctrl-C stops everything (honcho).
"""

import os
import shlex
import shutil
import sys
from pathlib import Path

from honcho.manager import Manager

from config import servers


def nginx_config(var: Path, listen: int, ports: list[int]) -> Path:
    """Write var/nginx.conf from deploy/nginx.conf.template; returns its path."""
    template = Path(__file__).resolve().parent.parent / "deploy" / "nginx.conf.template"
    upstreams = "\n".join(f"        server 127.0.0.1:{p};" for p in ports)
    text = template.read_text().format(upstreams=upstreams, listen=f"127.0.0.1:{listen}", var=var)
    path = var / "nginx.conf"
    path.write_text(text)
    return path


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings

    from config import embedded_redis

    base = int(os.environ.get("CLUSTER_PORT", "8100"))
    webs = int(os.environ.get("WEB_PROCESSES", "2"))
    var = settings.VAR_DIR / "cluster"
    var.mkdir(parents=True, exist_ok=True)
    py = sys.executable
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    manager = Manager()
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if nginx:
        # Behind nginx the client's address is its X-Forwarded-For entry; without
        # nginx nothing in front is trusted (config/proxy.py).
        env["TRUSTED_PROXY_COUNT"] = "1"
    if not os.environ.get("REDIS_URL"):
        sock = settings.EMBEDDED_REDIS_SOCKET
        sock.parent.mkdir(parents=True, exist_ok=True)
        sock.unlink(missing_ok=True)
        manager.add_process("redis", shlex.join(embedded_redis.command(sock)), env=env)
    ports = [base + 1 + i for i in range(webs)]
    pin = os.environ.get("WEB_PIN", "1") != "0"
    for i, port in enumerate(ports, 1):
        argv = servers.daphne_argv("127.0.0.1", port)
        manager.add_process(f"web{i}", shlex.join(servers.pinned(argv, i - 1) if pin else argv), env=env)
    live, default = settings.PARLOUR_LIVE_QUEUE, settings.CELERY_TASK_DEFAULT_QUEUE
    manager.add_process("live", f"{py} -m celery -A config worker -l info -c 2 -Q {live} -n live@%h",
                        env=env)
    manager.add_process("default",
                        f"{py} -m celery -A config worker -l info -c 1 -Q {default} -n default@%h", env=env)
    manager.add_process("beat", f"{py} -m celery -A config beat -l info -s {var / 'celerybeat-schedule'}",
                        env=env)
    if nginx:
        conf = nginx_config(var, base, ports)
        manager.add_process("proxy", f"{nginx} -c {conf} -g 'daemon off;'", env=env)
        where = f"http://127.0.0.1:{base}/ (nginx) over daphne on ports {ports}"
    else:
        where = f"daphne on ports {ports} (install nginx for the proxy on port {base})"
    print(f"\n  Parlour cluster: {where}. Ctrl-C stops everything.\n", flush=True)
    manager.loop()
    return manager.returncode or 0


if __name__ == "__main__":
    sys.exit(main())
