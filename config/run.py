"""``make run``: the embedded Redis (unless REDIS_URL is set), daphne, a Celery
worker and Celery beat, supervised by honcho. Ctrl-C stops them all.
"""

import os
import shlex
import sys

from honcho.manager import Manager


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings

    from config import embedded_redis, servers

    host = os.environ.get("HOST", "127.0.0.1")
    port = os.environ.get("PORT", "8000")
    py = sys.executable
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    manager = Manager()
    if not os.environ.get("REDIS_URL"):
        sock = settings.EMBEDDED_REDIS_SOCKET
        sock.parent.mkdir(parents=True, exist_ok=True)
        sock.unlink(missing_ok=True)
        manager.add_process("redis", shlex.join(embedded_redis.command(sock)), env=env)
    beat_file = settings.VAR_DIR / "run" / "celerybeat-schedule"
    manager.add_process("web", shlex.join(servers.daphne_argv(host, port)), env=env)
    queues = f"{settings.CELERY_TASK_DEFAULT_QUEUE},{settings.PARLOUR_LIVE_QUEUE}"
    manager.add_process("worker", f"{py} -m celery -A config worker -l info -c 2 -Q {queues}", env=env)
    manager.add_process("beat", f"{py} -m celery -A config beat -l info -s {beat_file}", env=env)
    print(f"\n  Parlour is starting at http://{host}:{port}/  (Ctrl-C stops everything)\n", flush=True)
    manager.loop()
    return manager.returncode or 0


if __name__ == "__main__":
    sys.exit(main())
