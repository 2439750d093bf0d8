"""``make run``: the embedded Redis (unless REDIS_URL is set), daphne, a Celery
worker and Celery beat under supervisord (config/supervisor.py), which starts
any of them again when it exits. Ctrl-C stops them all.
"""

import os
import shlex
import sys

from config.supervisor import Program, serve


def programs(host: str, port: int | str) -> list[Program]:
    """``make run``'s processes: redis (when embedded), web, worker, beat."""
    from django.conf import settings

    from config import embedded_redis, servers

    py = sys.executable
    found = []
    if not os.environ.get("REDIS_URL"):
        sock = settings.EMBEDDED_REDIS_SOCKET
        sock.parent.mkdir(parents=True, exist_ok=True)
        # A Redis that was killed leaves its socket file; redis-server replaces it.
        found.append(Program("redis", shlex.join(embedded_redis.command(sock)), priority=100))
    queues = f"{settings.CELERY_TASK_DEFAULT_QUEUE},{settings.PARLOUR_LIVE_QUEUE}"
    beat_file = settings.RUN_DIR / "celerybeat-schedule"
    found += [
        Program("web", shlex.join(servers.daphne_argv(host, port))),
        Program("worker", shlex.join([py, "-m", "celery", "-A", "config", "worker", "-l", "info",
                                      "-c", "2", "-Q", queues])),
        Program("beat", shlex.join([py, "-m", "celery", "-A", "config", "beat", "-l", "info",
                                    "-s", str(beat_file)])),
    ]
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
