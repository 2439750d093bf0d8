"""The release: upgrade a running site to the code in its checkout.

Run in the checkout after ``git pull``, as the site's user with its
environment (``deploy/release`` runs ``python -m config.release``)::

    deploy/release [--conf deploy/supervisord.conf]

It stops at the first step that fails, with a message, and exits 1:

1. **Back up** the database (``deploy/backup``).
2. **Install** the locked requirements (``requirements/production.txt``,
   hashes checked).
3. **Migrate**, every pending migration in ONE transaction on PostgreSQL:
   when the database refuses one, none of them is applied, nothing is
   restarted, and the site runs on as before (the running processes loaded
   the previous code; the checkout holds the new one, see the message).
4. **Collect static files** (``collectstatic --noinput``).
5. **Restart** the web processes one at a time (``supervisorctl restart``,
   then wait until the new one answers ``/healthz`` on its port before the
   next), so that a live match's sockets reconnect to another web process
   and go on; then the Celery workers one at a time, then beat.

Written in Python rather than shell: the migration step needs Django's
migration executor anyway, the supervisord file is read with configparser
and the ports with shlex, and the tests and linters see it like the rest
(docs/decisions.md, "Releases, backups and the service").
"""

from __future__ import annotations

import argparse
import configparser
import os
import shlex
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Seconds a restarted web process has to answer /healthz with 200.
WEB_UP_SECONDS = 90
#: The commit the processes were last released at (written after a release).
RELEASED = ROOT / "var" / "released-commit"


#: The migration step's exit status when the database refused a migration
#: and every one was rolled back.
REFUSED = 3


class ReleaseError(Exception):
    """A step failed; the message says which and what state the site is in."""


@dataclass(frozen=True)
class Program:
    """A program of the supervisord file: its name, and the port its web
    server listens on (None for a program that is not a web server)."""

    name: str
    port: int | None
    celery: bool
    beat: bool


def _port(argv: list[str]) -> int | None:
    """The TCP port of a uvicorn or daphne command line (``--port``/``-p``,
    or ``--bind``/``-b`` host:port), or None for any other command."""
    if not any(word in ("uvicorn", "daphne") or word.endswith(("/uvicorn", "/daphne")) for word in argv):
        return None
    for flag, value in zip(argv, argv[1:], strict=False):
        if flag in ("--port", "-p") and value.isdigit():
            return int(value)
        if flag in ("--bind", "-b") and value.rpartition(":")[2].isdigit():
            return int(value.rpartition(":")[2])
    return None


def read_programs(conf: Path) -> list[Program]:
    """The programs of supervisord file ``conf``, in file order.

    Raises ReleaseError when the file is missing or has no program."""
    parser = configparser.RawConfigParser()
    if not parser.read(conf):
        raise ReleaseError(f"no supervisord file at {conf}")
    found = []
    for section in parser.sections():
        if not section.startswith("program:"):
            continue
        argv = shlex.split(parser[section].get("command", ""))
        celery = "celery" in argv
        found.append(Program(section.split(":", 1)[1], _port(argv), celery, celery and "beat" in argv))
    if not found:
        raise ReleaseError(f"{conf} lists no [program:...]")
    return found


def _run(step: str, argv: list[str]) -> None:
    """Run ``argv`` in the checkout, its output passed through; raise
    ReleaseError naming ``step`` when it fails."""
    print(f"\n== {step}: {shlex.join(argv)}", flush=True)
    if subprocess.run(argv, cwd=ROOT).returncode != 0:
        raise ReleaseError(f"{step} failed (above)")


def backup() -> None:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres", "pgsql", "psql")):
        raise ReleaseError("DATABASE_URL is not a PostgreSQL database: deploy/backup cannot back it up "
                           "(--no-backup releases without one)")
    _run("Back up the database", [str(ROOT / "deploy" / "backup")])


def install(requirements: str) -> None:
    _run("Install the locked requirements",
         [sys.executable, "-m", "pip", "install", "--quiet", "--require-hashes", "--no-deps",
          "-r", requirements])


def migrate() -> None:
    print("\n== Migrate (every pending migration in one transaction)", flush=True)
    status = subprocess.run([sys.executable, "-m", "config.release", "--migrate-step"], cwd=ROOT).returncode
    if status == 0:
        return
    if status == REFUSED:
        what = "the database refused a migration (above). None of this release's migrations is applied"
    else:
        what = "the migration step failed (above, with what it applied, if anything)"
    raise ReleaseError(
        f"{what}, and nothing was restarted: the site runs on, on the code its processes loaded. "
        f"Put the checkout back to that code ({_previous_commit_hint()}) so that a process "
        "supervisord restarts runs the code the database's tables are for, then fix the migration.")


def _previous_commit_hint() -> str:
    if RELEASED.exists():
        return f"git reset --keep {RELEASED.read_text().strip()}, the last release"
    return "git reset --keep ORIG_HEAD, the commit before your git pull"


def migrate_in_one_transaction() -> int:
    """Apply every pending migration in one transaction (PostgreSQL's DDL is
    transactional): all of them or, when one fails, none. Returns the exit
    status: 0 applied (or nothing to do), REFUSED when the database refused
    one and all were rolled back, 1 when it would not start them (a message
    says why).

    Django runs each migration in a transaction of its own, so a failure at
    the third of five would leave two applied; inside one outer
    ``atomic()`` each becomes a savepoint and the failure rolls back all.
    A migration that cannot run in a transaction (``atomic = False``, such
    as ``AddIndexConcurrently``) is refused: apply it by hand
    (``manage.py migrate``) in a release of its own. SQLite (not for
    production) migrates as Django does, one transaction per migration."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if not plan:
        print("No migrations to apply.")
        return 0
    if any(backwards for _, backwards in plan):
        print("The plan unapplies migrations (the checkout is older than the database): refused.",
              file=sys.stderr)
        return 1
    print("To apply, together:", ", ".join(f"{m.app_label}.{m.name}" for m, _ in plan), flush=True)
    if connection.vendor != "postgresql":
        call_command("migrate", interactive=False)
        return 0
    loose = [f"{m.app_label}.{m.name}" for m, _ in plan if not m.atomic]
    if loose:
        print(f"Refused: {', '.join(loose)} cannot run inside a transaction (atomic = False); apply it "
              "by hand with manage.py migrate, in a release of its own.", file=sys.stderr)
        return 1
    try:
        with transaction.atomic():
            call_command("migrate", interactive=False)
    except Exception as error:  # whatever the database or the migration raised
        print(f"\nThe database refused the migrations: {type(error).__name__}: {error}\n"
              f"Rolled back: none of the {len(plan)} migrations is applied.", file=sys.stderr)
        return REFUSED
    return 0


def collectstatic() -> None:
    _run("Collect static files", [sys.executable, "manage.py", "collectstatic", "--noinput"])


def _healthz(port: int) -> str:
    """GET /healthz of the web process on ``port``: "200" or what it answered
    instead. Sent with the site's first ALLOWED_HOSTS name, as the proxy does."""
    hosts = [h.strip().lstrip(".") for h in os.environ.get("ALLOWED_HOSTS", "").split(",")]
    host = next((h for h in hosts if h and h != "*"), "127.0.0.1")
    request = urllib.request.Request(f"http://127.0.0.1:{port}/healthz", headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return str(response.status)
    except urllib.error.HTTPError as error:
        return f"HTTP {error.code}"
    except (urllib.error.URLError, OSError) as error:
        return str(getattr(error, "reason", error))


def _supervisorctl(conf: Path, *words: str) -> str:
    """What ``supervisorctl -c conf words...`` (the first on PATH: the
    virtualenv's or the system's, like the service's supervisord) said."""
    found = shutil.which("supervisorctl")
    if found is None:
        raise ReleaseError("supervisorctl is not on PATH (deploy/release puts the virtualenv's bin/ "
                           "first, as the service does for supervisord)")
    result = subprocess.run([found, "-c", str(conf), *words], cwd=ROOT, capture_output=True, text=True)
    return (result.stdout + result.stderr).strip()


def restart_one(conf: Path, program: Program) -> None:
    """``supervisorctl restart`` ``program``; wait until supervisord says
    RUNNING and, for a web process, until it answers /healthz with 200."""
    print(f"-- restart {program.name}", flush=True)
    started = time.monotonic()
    said = _supervisorctl(conf, "restart", program.name)
    status = _supervisorctl(conf, "status", program.name)
    if "RUNNING" not in status:
        raise ReleaseError(f"{program.name} did not start again: {said} / {status}")
    if program.port is None:
        print(f"   {program.name} runs again ({time.monotonic() - started:.1f} s)", flush=True)
        return
    deadline = time.monotonic() + WEB_UP_SECONDS
    while (answer := _healthz(program.port)) != "200":
        if time.monotonic() > deadline:
            raise ReleaseError(f"{program.name} did not answer /healthz on port {program.port} within "
                               f"{WEB_UP_SECONDS} s (last: {answer}); the web processes after it still run "
                               f"the previous code. Its log: var/log/{program.name}.log")
        time.sleep(0.3)
    took = time.monotonic() - started
    print(f"   {program.name} answers on port {program.port} ({took:.1f} s)", flush=True)


def restart(conf: Path) -> None:
    """Restart the web processes one at a time, then the Celery workers, then beat."""
    programs = read_programs(conf)
    webs = [p for p in programs if p.port is not None]
    if not webs:
        raise ReleaseError(f"{conf} has no web process (a uvicorn or daphne command with a --port)")
    print(f"\n== Restart, one at a time: {', '.join(p.name for p in webs)}, then the workers and beat",
          flush=True)
    workers = [p for p in programs if p.celery and not p.beat]
    for program in [*webs, *workers, *(p for p in programs if p.beat)]:
        restart_one(conf, program)


def release(args: argparse.Namespace) -> None:
    conf = Path(args.conf).resolve()
    # A wrong --conf, or a site that is not running, stops here, before anything is done.
    read_programs(conf)
    status = _supervisorctl(conf, "status")
    if "RUNNING" not in status:
        raise ReleaseError(f"supervisord does not answer for {conf} (is the site running?): {status}")
    if args.backup:
        backup()
    install(args.requirements)
    migrate()
    collectstatic()
    restart(conf)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    if commit.returncode == 0:
        RELEASED.parent.mkdir(parents=True, exist_ok=True)
        RELEASED.write_text(commit.stdout)
    print(f"\nReleased {commit.stdout.strip() or 'the checkout'}.", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="deploy/release", description=__doc__.split("\n\n")[0])
    parser.add_argument("--conf", default=str(ROOT / "deploy" / "supervisord.conf"),
                        help="supervisord file of the running site (default: deploy/supervisord.conf)")
    parser.add_argument("--requirements", default="requirements/production.txt",
                        help="the lockfile to install (default: requirements/production.txt)")
    parser.add_argument("--no-backup", dest="backup", action="store_false",
                        help="skip the backup (a database that is not PostgreSQL, or one backed up just now)")
    parser.add_argument("--migrate-step", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.migrate_step:
        return migrate_in_one_transaction()
    try:
        release(args)
    except ReleaseError as error:
        print(f"\nRelease stopped: {error}", file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
