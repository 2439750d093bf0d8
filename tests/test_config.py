"""Configuration from the environment, and finding a Python >= 3.12."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(argv, **env):
    base = {k: v for k, v in os.environ.items() if k not in {
        "SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT",
        "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS",
        "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    base.update(env)
    return subprocess.run(argv, cwd=ROOT, env=base, capture_output=True, text=True, timeout=120)


def test_refuses_to_start_with_debug_off_and_no_secret_key():
    """The traceback's last line names the setting and what it needs."""
    r = run([sys.executable, "manage.py", "check"], DEBUG="0")
    assert r.returncode != 0
    assert "SECRET_KEY is not set" in r.stderr.strip().splitlines()[-1]


def test_refuses_a_weak_secret_key_with_debug_off():
    """Short, or Django's development prefix: the last line says how to make a good one."""
    for weak in ("short", "django-insecure-" + "x1y2z3" * 10):
        r = run([sys.executable, "manage.py", "check"], DEBUG="0", SECRET_KEY=weak)
        assert r.returncode != 0
        last = r.stderr.strip().splitlines()[-1]
        assert "SECRET_KEY is too weak" in last and "secrets.token_urlsafe(50)" in last


def test_check_deploy_is_clean_in_the_production_configuration():
    r = run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        DEBUG="0", SECRET_KEY="x9" * 13 + "Qw-Er_Ty!Ui" * 3, ALLOWED_HOSTS="parlour.example",
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no issues" in r.stdout


def test_find_python_honours_an_override_and_explains_a_bad_one():
    r = run(["sh", "scripts/find-python"], PYTHON=sys.executable)
    assert r.returncode == 0 and r.stdout.strip()
    r = run(["sh", "scripts/find-python"], PYTHON="/nonexistent/python9")
    assert r.returncode == 1
    assert "not a working Python >= 3.12" in r.stderr


def test_find_python_finds_one_without_an_override():
    r = run(["sh", "scripts/find-python"], PYTHON="")
    assert r.returncode == 0
    found = r.stdout.strip()
    v = subprocess.run([found, "-c", "import sys; print(sys.version_info >= (3, 12))"],
                       capture_output=True, text=True)
    assert v.stdout.strip() == "True"


def test_a_pinned_web_process_runs_on_one_core_round_robin():
    """config.servers.pinned: process i of a layout is bound to the i-th usable
    core (production runs one pinned web process per core)."""
    from config import servers

    cores = sorted(os.sched_getaffinity(0))
    probe = [sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"]
    for index in range(len(cores) + 1):
        r = run(servers.pinned(probe, index))
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip() == str([cores[index % len(cores)]])


def test_the_production_web_lines_start_the_production_server_as_every_launcher_does():
    """deploy/Procfile's web lines are config.servers.production_argv
    (uvicorn; pinning aside, as make cluster starts it), and no server
    trusts proxy headers itself: the site reads them (core/proxy.py)."""
    from config import servers
    from tests import services

    text = (ROOT / "deploy" / "Procfile").read_text()
    webs = [line.split(":", 1)[0] for line in text.splitlines() if line.startswith("web")]
    assert webs
    for name in webs:
        assert services.procfile_argv(name, 9999) == servers.production_argv("127.0.0.1", 9999)
    commands = [line for line in text.splitlines() if not line.startswith("#")]
    assert not [line for line in commands if " --proxy-headers" in line]
    assert "--proxy-headers" not in servers.daphne_argv("127.0.0.1", 1)
    assert "--no-proxy-headers" in servers.uvicorn_argv("127.0.0.1", 1)  # uvicorn's default trusts 127.0.0.1


def test_x_forwarded_proto_is_believed_only_behind_a_trusted_proxy():
    show = "import config.settings as s; print(getattr(s, 'SECURE_PROXY_SSL_HEADER', None))"
    production = dict(DEBUG="0", SECRET_KEY="x9" * 13 + "Qw-Er_Ty!Ui" * 3, ALLOWED_HOSTS="parlour.example")
    r = run([sys.executable, "-c", show], TRUSTED_PROXY_COUNT="0", **production)
    assert r.returncode == 0 and r.stdout.strip() == "None", r.stderr
    r = run([sys.executable, "-c", show], TRUSTED_PROXY_COUNT="1", TRUSTED_PROXY_SECRET="s3" * 10,
            **production)
    assert r.returncode == 0 and r.stdout.strip() == "('HTTP_X_FORWARDED_PROTO', 'https')", r.stderr
    # A trusted proxy without the secret it sends would make the headers believable from anyone.
    for secret in ("", "too-short"):
        r = run([sys.executable, "-c", show], TRUSTED_PROXY_COUNT="1", TRUSTED_PROXY_SECRET=secret,
                **production)
        assert r.returncode != 0 and "needs TRUSTED_PROXY_SECRET" in r.stderr
    r = run([sys.executable, "-c", show], TRUSTED_PROXY_COUNT="-1", **production)
    assert r.returncode != 0 and "TRUSTED_PROXY_COUNT must be 0 or more" in r.stderr


def test_the_postgresql_pool_checks_each_connection_it_hands_out():
    """DATABASE_POOL=1 gives psycopg_pool core.database's check: Django
    passes OPTIONS["pool"]["check"] on (older Django releases raised
    TypeError for it). The pool is made, not opened: no server is needed."""
    code = ("import django; django.setup(); from django.db import connection; "
            "from core.database import check_pooled_connection as c; "
            "print(connection.pool._check is c)")
    r = run([sys.executable, "-c", code], DJANGO_SETTINGS_MODULE="config.settings", DEBUG="1",
            DATABASE_URL="postgres://nobody@127.0.0.1:9/nothing", DATABASE_POOL="1")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "True"
