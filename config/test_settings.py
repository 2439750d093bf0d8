"""Settings for the test suite: never the development database or Redis.

The tests start their own embedded redis-server on ``var/test/run-<pid>/redis.sock``
unless ``REDIS_URL`` is set (then they use that server, with their own
channel prefix and Celery queue, so a development worker never takes a test
task). The SQLite test database is a file, so the daphne and Celery processes
that the tests start can share it.
"""

import os
from pathlib import Path

os.environ.setdefault("SECRET_KEY", "test-" + "k3y-" * 14)
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("SESSION_COOKIE_SECURE", "0")
os.environ.setdefault("CSRF_COOKIE_SECURE", "0")
os.environ.setdefault("SECURE_HSTS_SECONDS", "0")
os.environ.setdefault("ALLOWED_HOSTS", "localhost,127.0.0.1,testserver")
os.environ.setdefault("PARLOUR_COMPUTER_DELAY", "0")
os.environ.setdefault("PARLOUR_SWEEP_SECONDS", "1")

from .settings import *  # noqa: E402,F403
from .settings import DATABASES, VAR_DIR, _celery_url, celery_task_routes, channel_layer_host  # noqa: E402

# One folder per test session (its children inherit it), so two sessions in
# one checkout never share a database file or a Redis socket. Each pytest-xdist
# worker (PYTEST_XDIST_WORKER, e.g. "gw0") is a session of its own: it starts
# with the folder and Redis its controller process had set, and takes its own.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if os.environ.get("PARLOUR_TEST_RUN_WORKER", "") != _WORKER:
    os.environ.pop("PARLOUR_TEST_RUN_DIR", None)
    os.environ.pop("PARLOUR_TEST_REDIS_URL", None)
os.environ["PARLOUR_TEST_RUN_WORKER"] = _WORKER
if not os.environ.get("PARLOUR_TEST_RUN_DIR"):
    os.environ["PARLOUR_TEST_RUN_DIR"] = str(VAR_DIR / "test" / f"run-{os.getpid()}")
TEST_VAR_DIR = Path(os.environ["PARLOUR_TEST_RUN_DIR"])
TEST_VAR_DIR.mkdir(parents=True, exist_ok=True)
EMBEDDED_REDIS_SOCKET = TEST_VAR_DIR / "redis.sock"
# config.run and config.cluster started by the tests keep their files here too.
RUN_DIR = TEST_VAR_DIR / "run"
CLUSTER_DIR = TEST_VAR_DIR / "cluster"
if not os.environ.get("PARLOUR_TEST_REDIS_URL"):
    # The session fixture starts this server (or points it at $REDIS_URL).
    os.environ["PARLOUR_TEST_REDIS_URL"] = os.environ.get("REDIS_URL") or (
        f"unix://{EMBEDDED_REDIS_SOCKET}"
    )
REDIS_URL = os.environ["PARLOUR_TEST_REDIS_URL"]
# Names in Redis, per xdist worker too (they share a $REDIS_URL server).
_TAG = "parlour-test" + (f"-{_WORKER}" if _WORKER else "")
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "core.channel_layer.PubSubChannelLayer",
        "CONFIG": {"hosts": [channel_layer_host(REDIS_URL)], "prefix": _TAG},
    }
}
CELERY_BROKER_URL = _celery_url(REDIS_URL)
PARLOUR_WS_SLOT_PREFIX = f"{_TAG}-sockets"
PARLOUR_BEAT_LOCK_KEY = f"{_TAG}-beat"
# The whole suite signs up and resets from 127.0.0.1 within the hour; the
# tests of these limits set the real ones (tests/accounts/test_limits.py).
PARLOUR_SIGNUP_RATE = "10000/hour"
PARLOUR_SIGNUP_FAILED_RATE = "10000/hour"
PARLOUR_PASSWORD_RESET_RATE = "10000/hour"
PARLOUR_PASSWORD_RESET_EMAIL_RATE = "10000/hour"
CELERY_TASK_DEFAULT_QUEUE = _TAG
PARLOUR_LIVE_QUEUE = f"{_TAG}-live"
PARLOUR_DEADLINE_QUEUE = f"{_TAG}-deadlines"
CELERY_TASK_ROUTES = celery_task_routes(PARLOUR_LIVE_QUEUE, PARLOUR_DEADLINE_QUEUE)

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {"NAME": str(TEST_VAR_DIR / "test.sqlite3")}

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
# Replays by visitors: the whole suite asks from 127.0.0.1; the test of this
# limit sets a small one (tests/games/test_replay_steps.py).
PARLOUR_REPLAY_VISITOR_RATE = "1000000/minute"
