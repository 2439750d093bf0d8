"""Backups that restore: a database holding a match in play (made and played
through the site's own actions) is dumped by deploy/backup, restored by
deploy/restore into a FRESH PostgreSQL server (initdb, another port), and a
web process pointed at it goes on: the match's next move plays over its
socket, and once it ends its replay page answers and its export verifies
(the seed against its commitment, every roll). Also: a failed backup says
why, writes nothing and deletes nothing; the retention keeps the newest;
a restore into a database that has tables is refused. Real pg_dump,
pg_restore and servers (docs/operations.md, "Backups")."""

import json
import os
import subprocess
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from games import actions
from games.engine import fair, get_rules
from games.models import Match, Move
from tests import services
from tests.deploy.postgres import Server
from tests.factories import ludo_state, make_match

pytestmark = [
    pytest.mark.slow,
    pytest.mark.resilience,
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="needs PostgreSQL (DATABASE_URL=postgres://...): the backups are pg_dumps"),
]

ROOT = Path(__file__).resolve().parent.parent.parent


def script(name: str, *args: str, **env) -> subprocess.CompletedProcess:
    return subprocess.run([str(ROOT / "deploy" / name), *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env})


def play(match, plies: int) -> Match:
    """``plies`` moves of whoever is to move (the first legal one), through the actions."""
    rules = get_rules("ludo")
    users = {s.index: s.user for s in match.seats.select_related("user")}
    for _ in range(plies):
        match = Match.objects.get(pk=match.pk)
        state = rules.load(match.state)
        match = actions.play_move(match.public_id, users[rules.to_move(state)],
                                  str(rules.legal_moves(state)[0]), match.version)
    return match


def cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def get(url: str, cookie_header: str) -> tuple[int, bytes]:
    request = urllib.request.Request(url, headers={"Cookie": cookie_header})
    with urllib.request.urlopen(request, timeout=20) as response:
        return response.status, response.read()


@pytest.fixture
def fresh_server():
    server = Server()
    yield server
    server.stop()


def test_a_backup_restored_into_a_fresh_server_goes_on_playing_and_replays(transactional_db, tmp_path,
                                                                           fresh_server):
    match = play(make_match(seats=("human", "human"), state=ludo_state(), turn_seconds=600), 4)
    users = {s.index: s.user for s in match.seats.select_related("user")}
    cookies = {index: cookie(user) for index, user in users.items()}  # sessions are in the backup too
    before = list(Move.objects.filter(match=match).order_by("ply").values_list("ply", "notation"))
    assert len(before) >= 4 and match.status == "active"

    made = script("backup", DATABASE_URL=services.test_database_url(), BACKUP_DIR=str(tmp_path))
    assert made.returncode == 0, made.stderr
    dump = Path(made.stdout.strip())
    assert dump.parent == tmp_path and dump.name.startswith("parlour-") and dump.suffix == ".dump"

    restored = script("restore", str(dump), DATABASE_URL=fresh_server.url)
    assert restored.returncode == 0, restored.stdout + restored.stderr
    # The procedure's next step (a backup from an older release would need it).
    services.run_python("from django.core.management import call_command; "
                        "call_command('migrate', interactive=False, verbosity=0)",
                        DATABASE_URL=fresh_server.url)
    # So that there is no doubt which database the site reads: the test's own moves
    # on, and ``match`` stays as the backup holds it.
    play(match, 1)

    server, base = services.start_daphne("daphne-restored", DATABASE_URL=fresh_server.url)
    try:
        rules = get_rules("ludo")
        state = rules.load(match.state)
        mover = rules.to_move(state)
        player = services.WsPlayer(base, None)
        player.headers.append(("Cookie", cookies[mover]))
        player.connect(match.public_id)
        player.until_version(match.version)
        player.send(move=str(rules.legal_moves(state)[0]), version=str(match.version))
        player.until_version(match.version + 1)
        player.close()

        # The match ends (a player leaves), and its replay and export are there.
        services.run_python(f"from accounts.models import User; from games import actions; "
                            f"actions.leave_match({match.public_id!r}, User.objects.get(pk={users[0].pk}))",
                            DATABASE_URL=fresh_server.url)
        status, page = get(f"{base}/m/{match.public_id}/replay/?ply=3", cookies[1])
        assert status == 200 and b"replay" in page.lower()
        status, body = get(f"{base}/m/{match.public_id}/export.json", cookies[1])
        export = json.loads(body)
    finally:
        server.stop()
    assert [(m["ply"], m["move"]) for m in export["moves"]][:len(before)] == before
    assert len(export["moves"]) >= len(before) + 1  # the move played on the restored site
    report = fair.verify_record(export["game"], export["seed"], export["id"], export["start_state"],
                                [m["move"] for m in export["moves"]], export["seed_commitment"])
    assert report.ok, report


def test_a_failed_backup_says_why_writes_nothing_and_keeps_the_older_ones(tmp_path):
    older = [tmp_path / f"parlour-2026010{i}T031500Z.dump" for i in range(1, 4)]
    for path in older:
        path.write_bytes(b"an older backup")
    refused = script("backup", DATABASE_URL=f"postgres://parlour@127.0.0.1:{services.free_port()}/parlour",
                     BACKUP_DIR=str(tmp_path), BACKUP_KEEP="1")
    assert refused.returncode != 0
    assert "pg_dump failed" in refused.stderr and "no backup was written" in refused.stderr
    assert sorted(tmp_path.iterdir()) == older

    for env, message in [({"DATABASE_URL": "sqlite:///var/db.sqlite3"}, "not a PostgreSQL URL"),
                         ({"DATABASE_URL": ""}, "DATABASE_URL is not set"),
                         ({"DATABASE_URL": "postgres://x@127.0.0.1/x", "BACKUP_KEEP": "none"},
                          "BACKUP_KEEP")]:
        refused = script("backup", BACKUP_DIR=str(tmp_path), **env)
        assert refused.returncode != 0 and message in refused.stderr, refused.stderr
    assert sorted(tmp_path.iterdir()) == older


def test_a_backup_keeps_the_newest_and_a_restore_refuses_a_database_with_tables(transactional_db, tmp_path):
    older = [tmp_path / f"parlour-2026010{i}T031500Z.dump" for i in range(1, 4)]
    for path in older:
        path.write_bytes(b"an older backup")
    made = script("backup", DATABASE_URL=services.test_database_url(), BACKUP_DIR=str(tmp_path),
                  BACKUP_KEEP="2")
    assert made.returncode == 0, made.stderr
    assert sorted(tmp_path.iterdir()) == [older[-1], Path(made.stdout.strip())]
    assert oct(Path(made.stdout.strip()).stat().st_mode & 0o777) == "0o600"

    refused = script("restore", made.stdout.strip(), DATABASE_URL=services.test_database_url())
    assert refused.returncode != 0, refused.stdout
    assert "already has" in refused.stderr and "nothing was changed" in refused.stderr
    refused = script("restore", str(older[-1]), DATABASE_URL=services.test_database_url())
    assert refused.returncode != 0 and "not a pg_dump custom-format backup" in refused.stderr
