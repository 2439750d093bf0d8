"""The release script (deploy/release, config/release.py) on a running site.

The site is the previous commit, checked out beside this one (``git worktree
add HEAD~1``), run for real: supervisord with two uvicorn web processes, the
Celery worker of the computers' moves and beat (startsecs 1 instead of 10, for
speed), nginx in front, on the PostgreSQL test database. Players hold real WebSockets through
nginx, as the match page does, and reconnect when theirs closes. The checkout
is then switched to this commit (and this working tree's changes), as
``git pull`` would, and:

- a release whose migration the database refuses (a CHECK its rows break,
  after a migration that would pass) stops with the message, neither
  migration is applied (one transaction), no process is restarted and the
  sockets go on as if nothing happened;
- the release goes through while the players go on moving. The web processes
  restart one at a time (never both down), the workers and beat after them;
  every socket is closed by a restart and reconnects; every move a player saw
  acknowledged is in the record, the records replay, every match goes on (the
  computer's answers too, through the new workers), the pages answer.

PostgreSQL only: the release backs up with pg_dump and migrates in one
transaction, which needs PostgreSQL's transactional DDL."""

import itertools
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

from config import servers, workers
from config.supervisor import Program, configuration
from games.engine import fair, get_rules
from games.models import Match, Move
from tests import services
from tests.factories import ludo_state, make_match
from tests.resilience.test_supervisor import human_and_computer_play

pytestmark = [
    pytest.mark.slow,
    pytest.mark.resilience,
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="needs PostgreSQL (DATABASE_URL=postgres://...): the release backs up with "
                              "pg_dump and migrates in one transaction"),
]

ROOT = Path(__file__).resolve().parent.parent.parent
_sites = itertools.count(1)


def git(*args: str, cwd: Path = ROOT) -> str:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=120)
    if result.returncode:
        raise AssertionError(f"git {' '.join(args)} failed in {cwd}:\n{result.stderr}")
    return result.stdout


def overlay_working_tree(checkout: Path) -> None:
    """Copy this checkout's uncommitted changes (changed, new and deleted
    files) into ``checkout``, which is at HEAD: the release under test is the
    one in this working tree, committed or not."""
    changed = git("diff", "--name-only", "HEAD").split()
    for rel in changed + git("ls-files", "--others", "--exclude-standard").split():
        source, target = ROOT / rel, checkout / rel
        if source.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
        else:
            target.unlink(missing_ok=True)


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=3) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def refused(port: int) -> bool:
    """Whether nothing listens on 127.0.0.1:``port`` (the process is down)."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
        return False
    except ConnectionRefusedError:
        return True
    except OSError:
        return False


class Watcher(threading.Thread):
    """Knocks on every web port every 0.1 s, apart from the players (who may
    wait out a restart), and counts the rounds where one, and where every one,
    refused the connection (a slow answer under load is not "down")."""

    def __init__(self, ports: list[int]):
        super().__init__(daemon=True)
        self.ports, self.one_down, self.both_down = ports, 0, 0
        self.done = threading.Event()
        self.start()

    def run(self) -> None:
        while not self.done.wait(0.1):
            down = [port for port in self.ports if refused(port)]
            self.one_down += len(down) == 1
            self.both_down += len(down) == len(self.ports)

    def stop(self) -> None:
        self.done.set()
        self.join(10)


class Site:
    """The previous commit's checkout under supervisord, behind nginx."""

    def __init__(self):
        previous = subprocess.run(["git", "rev-parse", "--verify", "HEAD~1^{commit}"], cwd=ROOT,
                                  capture_output=True, text=True)
        if previous.returncode:
            raise AssertionError("the release test needs the previous commit (HEAD~1): a clone with history")
        self.dir = services.LOG_DIR.parent / f"release-site-{next(_sites)}"
        self.checkout = self.dir / "checkout"
        self.state = self.dir / "state"
        self.state.mkdir(parents=True)
        git("worktree", "add", "--detach", str(self.checkout), previous.stdout.strip())
        self.ports = [services.free_port(), services.free_port()]
        programs = [Program(f"web{i}", _join(servers.production_argv("127.0.0.1", port)))
                    for i, port in enumerate(self.ports, 1)]
        # One Celery worker (the computers' moves) of the three stands for them
        # all: the release restarts whatever the file lists, and each costs seconds.
        programs.append(Program("live", _join(workers.production_workers()["live"])))
        programs.append(Program("beat", _join([sys.executable, "-m", "celery", "-A", "config", "beat", "-l",
                                               "info", "-s", str(self.state / "celerybeat-schedule")])))
        self.names = [p.name for p in programs]
        self.conf = self.state / "supervisord.conf"
        self.conf.write_text(configuration(programs, directory=str(self.checkout), state=str(self.state))
                             .replace("startsecs=10", "startsecs=1"))
        self.env = services.service_env(
            **services.behind_proxy(),
            PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}",
            BACKUP_DIR=str(self.dir / "backups"),
        )
        self.svc = services.Service("supervisord-release",
                                    [sys.executable, "-m", "supervisor.supervisord", "-c", str(self.conf)],
                                    self.env)
        self.nginx = None
        try:
            self.wait_running()
            for port in self.ports:
                services.wait_for(lambda p=port: healthy(f"http://127.0.0.1:{p}"), 60, interval=0.3,
                                  what=f"the web process on port {port}")
            self.nginx, self.url = services.start_nginx(self.ports, "nginx-release")
        except BaseException:
            self.stop()
            raise

    def status(self) -> dict[str, tuple[str, int]]:
        """supervisorctl's view: program -> (state, pid)."""
        result = subprocess.run([sys.executable, "-m", "supervisor.supervisorctl", "-c", str(self.conf),
                                 "status"], capture_output=True, text=True, timeout=30)
        found = {}
        for line in result.stdout.splitlines():
            words = line.split()
            if len(words) >= 2 and words[0] in self.names:
                pid = re.search(r"pid (\d+)", line)
                found[words[0]] = (words[1], int(pid.group(1)) if pid else 0)
        return found

    def wait_running(self) -> dict[str, int]:
        def running():
            if not self.svc.alive():
                raise AssertionError(f"supervisord exited:\n{self.svc.log()[-3000:]}")
            status = self.status()
            if set(status) == set(self.names) and all(s == "RUNNING" for s, _ in status.values()):
                return {name: pid for name, (_, pid) in status.items()}
            return None

        return services.wait_for(running, 90, interval=0.3, what="every program RUNNING")

    def release(self) -> subprocess.Popen:
        """deploy/release, as an operator runs it in the checkout, with this
        site's file; its output goes to files (``output()`` reads them)."""
        self.out, self.err = self.dir / "release.out", self.dir / "release.err"
        with open(self.out, "w") as out, open(self.err, "w") as err:
            return subprocess.Popen([str(self.checkout / "deploy" / "release"), "--conf", str(self.conf)],
                                    cwd=self.checkout, env=dict(self.env, PYTHON=sys.executable),
                                    stdout=out, stderr=err)

    def switch_to_this_commit(self) -> None:
        """What ``git pull`` does to an operator's checkout: this commit, and
        this working tree's changes, in place of the previous one."""
        git("checkout", "--detach", git("rev-parse", "HEAD").strip(), cwd=self.checkout)
        overlay_working_tree(self.checkout)

    def output(self) -> tuple[str, str]:
        return self.out.read_text(), self.err.read_text()

    def stop(self) -> None:
        if self.nginx is not None:
            self.nginx.stop()
        self.svc.stop(timeout=40)
        subprocess.run(["git", "worktree", "remove", "--force", str(self.checkout)], cwd=ROOT,
                       capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)
        subprocess.run(["git", "worktree", "prune"], cwd=ROOT, capture_output=True)


def _join(argv: list[str]) -> str:
    import shlex

    return shlex.join(argv)


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        services.stop_shared_worker()
        services.purge_task_queues()
        running = Site()
    yield running
    running.stop()


def _version(frame: str) -> int:
    return int(re.search(r'data-version="(\d+)"', frame).group(1))


class Seat:
    """A player's match socket through nginx; reconnects (as the page does)
    when the server closes it, and counts how often it did."""

    def __init__(self, url: str, user, public_id: str):
        self.url, self.user, self.public_id = url, user, public_id
        self.reconnects = 0
        self.seen = -1  # the latest version a frame showed
        self.player = services.WsPlayer(url, user).connect(public_id)
        self.seen = _version(self.player.until(lambda f: 'data-kind="snapshot"' in f))

    def reconnect(self) -> None:
        from websockets.exceptions import WebSocketException

        try:
            self.player.close()
        except (WebSocketException, OSError):
            pass

        def connected():
            try:
                self.player = services.WsPlayer(self.url, self.user).connect(self.public_id, open_timeout=5)
                snapshot = self.player.until(lambda f: 'data-kind="snapshot"' in f, timeout=5)
                self.seen = max(self.seen, _version(snapshot))
                return True
            except (WebSocketException, OSError, TimeoutError, AssertionError):
                return False

        services.wait_for(connected, 60, interval=0.2,
                          what=f"a socket of match {self.public_id} to reconnect")
        self.reconnects += 1

    def until_version(self, version: int, timeout: float = 15) -> bool:
        """Wait for a frame at ``version`` or later; False when the socket
        closed meanwhile (it has reconnected, and its snapshot may be later)."""
        from websockets.exceptions import WebSocketException

        if self.seen >= version:
            return True
        try:
            self.seen = max(self.seen, self.player.until_version_at_least(version, timeout))
            return True
        except (WebSocketException, OSError):
            self.reconnect()
            return False


class Table:
    """A Ludo match of two humans, each with a socket."""

    rules = get_rules("ludo")

    def __init__(self, url: str):
        self.match = make_match(seats=("human", "human"), state=ludo_state(), turn_seconds=600)
        self.seats = [Seat(url, s.user, self.match.public_id)
                      for s in self.match.seats.select_related("user").order_by("index")]
        self.acknowledged: list[int] = []  # versions a mover saw its move reach

    def move(self) -> None:
        """The player to move sends the first legal move over their socket and
        waits for its frame; a socket that closed reconnects instead (the move
        may or may not have been played: only acknowledged moves count)."""
        from websockets.exceptions import WebSocketException

        match = Match.objects.get(pk=self.match.pk)
        state = self.rules.load(match.state)
        assert match.status == "active", (match.status, match.end_reason, match.version)
        seat = self.seats[self.rules.to_move(state)]
        try:
            seat.player.send(move=str(self.rules.legal_moves(state)[0]), version=str(match.version))
        except (WebSocketException, OSError):
            seat.reconnect()
            return
        if seat.until_version(match.version + 1):
            self.acknowledged.append(match.version + 1)

    def everyone_sees_a_move(self) -> None:
        """One acknowledged move that both seats' sockets then show."""
        before = len(self.acknowledged)
        services.wait_for(lambda: self.move() or len(self.acknowledged) > before, 60, interval=0,
                          what=f"a move in match {self.match.public_id}")
        for seat in self.seats:  # the mover has seen it; the other seat too, now or after a reconnect
            services.wait_for(lambda s=seat: s.until_version(self.acknowledged[-1]), 60, interval=0,
                              what="every seat to see the move")

    def check_record(self) -> None:
        """Every acknowledged move is in the record, whose plies run 0..n-1 and
        replay from the seed; the match is still in play."""
        match = Match.objects.get(pk=self.match.pk)
        assert match.status == "active", match.status
        moves = list(Move.objects.filter(match=match).order_by("ply"))
        assert [m.ply for m in moves] == list(range(len(moves)))
        after = {m.version_after for m in moves}
        lost = [v for v in self.acknowledged if v not in after]
        assert not lost, f"moves acknowledged at versions {lost} are not in the record of {match.public_id}"
        report = fair.verify_record(match.kind, match.seed, match.public_id, match.start_state,
                                    [m.notation for m in moves], match.seed_hash)
        assert report.ok, report

    def close(self) -> None:
        for seat in self.seats:
            seat.player.close()


#: Seconds between two rounds of moves while the release runs, and the most
#: moves a match gets meanwhile: fast enough to meet every restart, few enough
#: that no match ends (a Ludo match of first legal moves ends near ply 150).
PACE = 0.5
PACE_LIMIT = 50

REFUSED = """\
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("games", "{after}")]
    operations = [migrations.RunSQL({sql!r}, migrations.RunSQL.noop)]
"""


def test_a_refused_migration_changes_nothing_then_the_release_upgrades_the_running_site_none_lost(
        site, transactional_db):
    """One test, one site (starting one costs more than each phase): first a
    release that the database refuses, then the release that goes through,
    as an operator would fix a migration and release again."""
    tables = [Table(site.url) for _ in range(3)]
    solo = make_match(seats=("human", "easy"), state=ludo_state(), turn_seconds=600)
    human_and_computer_play(site.url, solo, solo.seats.get(index=0).user)
    for table in tables:
        table.everyone_sees_a_move()
    site.switch_to_this_commit()
    refused_migration_changes_nothing(site, tables)
    release_upgrades_with_matches_in_play(site, tables, solo)


def refused_migration_changes_nothing(site: Site, tables: list[Table]) -> None:
    """Two new migrations, the second of which the database refuses: the
    release stops with the message after its backup; neither is applied; no
    process restarts; the sockets and matches go on untouched."""
    before = site.wait_running()
    folder = site.checkout / "games" / "migrations"
    last = max(p.stem for p in folder.glob("0*.py"))
    added = [folder / "9001_release_test_applies.py", folder / "9002_release_test_refused.py"]
    added[0].write_text(REFUSED.format(after=last, sql="CREATE TABLE release_test_applied (id integer)"))
    # A constraint every match already breaks: the database refuses it.
    added[1].write_text(REFUSED.format(after=added[0].stem, sql="ALTER TABLE games_match ADD CONSTRAINT "
                                                                 "release_test_refused CHECK (version < 0)"))
    try:
        release = site.release()
        release.wait(240)
        out, err = site.output()
    finally:
        for path in added:
            path.unlink()
    assert release.returncode == 1, f"{out}\n{err}"
    assert "Release stopped: the database refused a migration" in err, err
    assert "none of the 2 migrations is applied" in err and "release_test_refused" in err, err
    assert "nothing was restarted" in err, err
    assert "-- restart" not in out and "Collect static files" not in out, out
    assert len(list((site.dir / "backups").glob("parlour-*.dump"))) == 1, "no backup was made first"
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass('release_test_applied')")
        assert cursor.fetchone() == (None,)
        cursor.execute("SELECT count(*) FROM django_migrations WHERE name LIKE '900%%_release_test_%%'")
        assert cursor.fetchone() == (0,)
    assert site.wait_running() == before, "a process was restarted"
    for table in tables:
        table.everyone_sees_a_move()
        assert all(seat.reconnects == 0 for seat in table.seats), "a socket was closed"
        table.check_record()


def release_upgrades_with_matches_in_play(site: Site, tables: list[Table], solo: Match) -> None:
    """The release with the players moving meanwhile: web processes one at a
    time (never both down), then the workers and beat, all new; every socket
    closed by a restart reconnects; no acknowledged move is lost; every match
    goes on, the computer's too; the pages answer."""
    before = site.wait_running()
    started = time.monotonic()
    release = site.release()
    watcher = Watcher(site.ports)
    # The players go on meanwhile, at a player's pace (a match has to last).
    moves = 0
    while release.poll() is None:
        if moves < PACE_LIMIT * len(tables):
            for table in tables:
                table.move()
                moves += 1
        time.sleep(PACE)
    watcher.stop()
    out, err = site.output()
    took = time.monotonic() - started
    assert release.returncode == 0, f"the release failed:\n{out}\n{err}"
    assert watcher.both_down == 0, f"both web processes were down at once ({watcher.both_down} times)"
    order = re.findall(r"^-- restart (\S+)", out, re.MULTILINE)
    assert order == ["web1", "web2", "live", "beat"], out
    assert "No migrations to apply." in out or "To apply, together" in out, out
    assert len(list((site.dir / "backups").glob("parlour-*.dump"))) == 2, "no backup was made"
    after = site.wait_running()
    assert all(after[name] != before[name] for name in site.names), (before, after)

    for table in tables:
        table.everyone_sees_a_move()
        table.check_record()
        assert all(seat.reconnects >= 1 for seat in table.seats), "a socket was never closed by the restarts"
        table.close()
    human_and_computer_play(site.url, solo, solo.seats.get(index=0).user)  # the new live worker answers
    for path in ("/", f"/m/{tables[0].match.public_id}/", "/healthz"):
        assert services.http_status(site.url + path) == 200, path
    print(f"release took {took:.1f} s; {moves} moves tried meanwhile; one web process down in "
          f"{watcher.one_down} of the watcher's rounds\n{out}")
