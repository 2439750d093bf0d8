"""``make run``: the embedded Redis (unless REDIS_URL is set), daphne, two Celery
workers (the deadlines' own, and one for the rest: config/workers.py) and
Celery beat under supervisord (config/supervisor.py), which starts
any of them again when it exits. Ctrl-C stops them all.
"""

import os
import shlex
import sys

from config.supervisor import Program, serve


def programs(host: str, port: int | str) -> list[Program]:
    """``make run``'s processes: redis (when embedded), web, worker, deadlines, beat."""
    from django.conf import settings

    from config import embedded_redis, servers, workers

    py = sys.executable
    found = []
    if not os.environ.get("REDIS_URL"):
        sock = settings.EMBEDDED_REDIS_SOCKET
        sock.parent.mkdir(parents=True, exist_ok=True)
        # A Redis that was killed leaves its socket file; redis-server replaces it.
        found.append(Program("redis", shlex.join(embedded_redis.command(sock)), priority=100))
    beat_file = settings.RUN_DIR / "celerybeat-schedule"
    found.append(Program("web", shlex.join(servers.daphne_argv(host, port))))
    # A worker for the computers' moves and the default queue, and one of
    # the deadlines' own (config/workers.py).
    found += [Program(name, shlex.join(argv)) for name, argv in workers.run_workers().items()]
    found.append(Program("beat", shlex.join([py, "-m", "celery", "-A", "config", "beat", "-l", "info",
                                             "-s", str(beat_file)])))
    return found


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings

    host = os.environ.get("HOST", "127.0.0.1")
    port = os.environ.get("PORT", "8000")
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    print(f"\n  Parlour is starting at http://{host}:{port}/  (Ctrl-C stops everything)\n", flush=True)
    serve(programs(host, port), settings.RUN_DIR, env)


if __name__ == "__main__":
    main()
