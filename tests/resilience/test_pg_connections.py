"""The database ends the server's connections (``pg_terminate_backend``, as a
restart or a failover does): a real daphne on the PostgreSQL test database
with Django's connection pool (DATABASE_POOL=1), real WebSocket clients.

Moves and page loads after it must work: the pool checks a connection before
handing it out, and a move whose connection broke before its commit is
played once more, whole, on a fresh connection; one whose connection broke
during its commit is refused with an error frame (README "Decisions").
PostgreSQL only: SQLite has no server to end connections."""

import re
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from games.engine import get_rules
from games.models import Match, Move
from tests import services
from tests.factories import ludo_state, make_match

pytestmark = [
    pytest.mark.slow,
    pytest.mark.resilience,
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="needs PostgreSQL (DATABASE_URL=postgres://...): it ends the "
                              "database server's connections, which SQLite does not have"),
]


#: The server's sessions carry this name, so the test ends those (every one
#: of them) and never its own.
SERVER_APP = "parlour-test-pooled-server"


@pytest.fixture(scope="module")
def pooled_daphne(django_db_setup, django_db_blocker):
    """daphne on the test database with the pool on; yields its base URL."""
    with django_db_blocker.unblock():
        database_url = f"{services.test_database_url()}?application_name={SERVER_APP}"
        svc, url = services.start_daphne("daphne-pool", DATABASE_POOL="1", DATABASE_URL=database_url)
    yield url
    svc.stop()


@pytest.fixture
def pooled_server(pooled_daphne, transactional_db):
    """The pooled daphne's base URL; the test's data is committed so it sees it."""
    return pooled_daphne


def _pages(base: str, match) -> list[str]:
    return [f"{base}/", f"{base}/m/{match.public_id}/", f"{base}/play/", f"{base}/healthz"]


def _backends() -> list[int]:
    """Pids of the server's sessions on the test database."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                       "AND application_name = %s AND pid <> pg_backend_pid()", [SERVER_APP])
        return [pid for (pid,) in cursor.fetchall()]


def _terminate_all() -> list[int]:
    """End every session of the server; returns once they are gone."""
    pids = _backends()
    with connection.cursor() as cursor:
        for pid in pids:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    services.wait_for(lambda: not set(pids) & set(_backends()), 10, what="the sessions to end")
    return pids


def _seats(match):
    return {s.index: s.user for s in match.seats.select_related("user")}


def _next_move(match):
    """(seat to move, a legal move's notation) in ``match`` as stored now."""
    rules = get_rules(match.kind)
    state = rules.load(match.state)
    return rules.to_move(state), str(rules.legal_moves(state)[0])


def _play(players, match) -> Match:
    """Send the next legal move over the mover's socket; returns the match
    once every socket has seen the new version."""
    seat, notation = _next_move(match)
    players[seat].send(move=notation, version=str(match.version))
    for p in sorted(players.values(), key=lambda p: p is not players[seat]):  # the mover first
        p.until_version(match.version + 1, timeout=20)
    return Match.objects.get(pk=match.pk)


def _warm(base, players, match) -> tuple[Match, list[int]]:
    """Page loads at once (several pooled connections) and a move; returns
    the match and the sessions the servers hold afterwards."""
    with ThreadPoolExecutor(8) as pool:
        assert set(pool.map(services.http_status, _pages(base, match) * 4)) == {200}
    match = _play(players, match)
    return match, _backends()


def _open_players(base, match):
    return {i: _open_player(base, u, match) for i, u in _seats(match).items()}


def _open_player(base, user, match, attempts: int = 5):
    """A socket of ``user`` on the match, at its version. A socket closed with
    4013 ("try again": its sign-in lookup waited longer than the handshake may,
    as on a loaded machine) is opened again, as the page does (static/js/socket.js)."""
    from websockets.exceptions import ConnectionClosed

    from accounts.close_codes import CLOSE_TRY_AGAIN

    for attempt in range(attempts):
        player = services.WsPlayer(base, user)
        try:
            player.connect(match.public_id)
            player.until_version(match.version)
            return player
        except ConnectionClosed as e:
            if e.rcvd is None or e.rcvd.code != CLOSE_TRY_AGAIN or attempt == attempts - 1:
                raise


def _still_open(player, match) -> None:
    """The socket answers a sync with the current position (it was not closed)."""
    player.send(type="sync")
    player.until(lambda f: 'data-kind="snapshot"' in f and f'data-version="{match.version}"' in f)


def test_moves_and_pages_work_after_the_database_ends_every_connection(pooled_server):
    match = make_match(seats=("human", "human"), state=ludo_state())
    players = _open_players(pooled_server, match)
    match, held = _warm(pooled_server, players, match)
    assert len(held) >= 2, f"the server should hold several pooled connections, holds {held}"

    assert set(_terminate_all()) >= set(held)

    # The next move over a socket opened before: applied once, socket open.
    before = Move.objects.filter(match=match).count()
    after = _play(players, match)
    assert after.version == match.version + 1
    assert Move.objects.filter(match=match, version_after=after.version).exists()
    assert Move.objects.filter(match=match).count() > before
    plies = list(Move.objects.filter(match=match).values_list("ply", flat=True))
    assert len(plies) == len(set(plies))
    for p in players.values():
        _still_open(p, after)

    # Page loads (more than the pool holds), after the move and right after
    # another ending of every connection: all 200s.
    for _ in range(2):
        statuses = [services.http_status(url) for url in _pages(pooled_server, match) * 4]
        assert statuses == [200] * len(statuses)
        _terminate_all()
    for p in players.values():
        p.close()


@pytest.fixture
def kill_on_move_insert(transactional_db):
    """``arm(at, times=1)``: the next ``times`` transactions that insert a
    move have their connection ended by the database: at the INSERT
    (``"statement"``, after the match row's UPDATE, mid-transaction) or at
    the COMMIT (``"commit"``: a deferred trigger, so the commit fails and
    nothing is saved). ``arm.runs()``: how many times the trigger has run."""
    table = Move._meta.db_table

    def run(*sql):
        with connection.cursor() as cursor:
            for statement in sql:
                cursor.execute(statement)

    def arm(at: str, times: int = 1) -> None:
        trigger = (f"TRIGGER test_kill_once BEFORE INSERT ON {table}" if at == "statement" else
                   f"CONSTRAINT TRIGGER test_kill_once AFTER INSERT ON {table} "
                   "DEFERRABLE INITIALLY DEFERRED")
        run("CREATE SEQUENCE test_kill_once",
            "CREATE FUNCTION test_kill_once() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"IF nextval('test_kill_once') <= {int(times)} THEN "
            "PERFORM pg_terminate_backend(pg_backend_pid()); "
            "END IF; RETURN NEW; END $$",
            f"CREATE {trigger} FOR EACH ROW EXECUTE FUNCTION test_kill_once()")

    def runs() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM test_kill_once")
            return cursor.fetchone()[0]

    arm.runs = runs
    yield arm
    run(f"DROP TRIGGER IF EXISTS test_kill_once ON {table}",
        "DROP FUNCTION IF EXISTS test_kill_once()", "DROP SEQUENCE IF EXISTS test_kill_once")


def test_a_move_whose_connection_is_lost_mid_transaction_is_played_once_more_whole(
        pooled_server, kill_on_move_insert):
    match = make_match(seats=("human", "human"), state=ludo_state())
    players = _open_players(pooled_server, match)
    match = _play(players, match)

    kill_on_move_insert("statement")
    after = _play(players, match)

    assert kill_on_move_insert.runs() >= 2  # the first try was ended, the second saved
    assert after.version == match.version + 1
    rows = list(Move.objects.filter(match=match).values_list("ply", "version_after"))
    assert len(rows) == len({ply for ply, _ in rows})
    assert {v for _, v in rows if v > match.version} == {after.version}
    assert after.ply_count == len(rows)
    for p in players.values():
        _still_open(p, after)
        p.close()


def test_a_move_whose_connection_is_lost_twice_is_refused_and_changes_nothing(
        pooled_server, kill_on_move_insert):
    match = make_match(seats=("human", "human"), state=ludo_state())
    players = _open_players(pooled_server, match)
    match = _play(players, match)
    moves_before = Move.objects.filter(match=match).count()

    kill_on_move_insert("statement", times=2)
    seat, notation = _next_move(match)
    players[seat].send(move=notation, version=str(match.version))
    error = players[seat].until(lambda f: 'data-kind="error"' in f, timeout=20)
    assert "lost its connection to the database, so nothing was changed" in error
    players[seat].until(lambda f: 'data-kind="snapshot"' in f and f'data-version="{match.version}"' in f)
    assert kill_on_move_insert.runs() == 2  # tried twice, never a third time
    now = Match.objects.get(pk=match.pk)
    assert now.version == match.version
    assert Move.objects.filter(match=match).count() == moves_before

    after = _play(players, now)
    assert after.version == match.version + 1
    for p in players.values():
        _still_open(p, after)
        p.close()


def test_a_move_whose_connection_is_lost_during_its_commit_is_refused_not_repeated(
        pooled_server, kill_on_move_insert):
    match = make_match(seats=("human", "human"), state=ludo_state())
    players = _open_players(pooled_server, match)
    match = _play(players, match)
    moves_before = Move.objects.filter(match=match).count()

    kill_on_move_insert("commit")
    seat, notation = _next_move(match)
    players[seat].send(move=notation, version=str(match.version))
    error = players[seat].until(lambda f: 'data-kind="error"' in f, timeout=20)
    assert "lost its connection to the database while saving" in error
    # It was not run again (the database might have saved it), and the
    # sender gets the current position.
    players[seat].until(lambda f: 'data-kind="snapshot"' in f and f'data-version="{match.version}"' in f)
    assert kill_on_move_insert.runs() == 1
    now = Match.objects.get(pk=match.pk)
    assert now.version == match.version
    assert Move.objects.filter(match=match).count() == moves_before

    # The socket stays open and the next try is played.
    after = _play(players, now)
    assert after.version == match.version + 1
    for p in players.values():
        _still_open(p, after)
        p.close()


def _post_move(base: str, user, match) -> int:
    """Post the next legal move as ``user`` through the page's form (no
    JavaScript); returns the status after the redirect."""
    client = Client()
    client.force_login(user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    page = f"{base}/m/{match.public_id}/"
    with urllib.request.urlopen(urllib.request.Request(page, headers={"Cookie": cookie}), timeout=20) as r:
        csrf = re.search(r"csrftoken=([^;]+)", r.headers.get("Set-Cookie", "")).group(1)
    _, notation = _next_move(match)
    body = urllib.parse.urlencode({"move": notation, "version": match.version,
                                   "csrfmiddlewaretoken": csrf}).encode()
    request = urllib.request.Request(f"{page}move/", data=body, headers={
        "Cookie": f"{cookie}; csrftoken={csrf}", "Referer": page})
    try:
        with urllib.request.urlopen(request, timeout=20) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def test_a_posted_move_whose_connection_is_lost_mid_transaction_is_played_once_more(
        pooled_server, kill_on_move_insert):
    match = make_match(seats=("human", "human"), state=ludo_state())
    seat, _ = _next_move(match)
    kill_on_move_insert("statement")
    assert _post_move(pooled_server, _seats(match)[seat], match) == 200
    assert kill_on_move_insert.runs() >= 2
    after = Match.objects.get(pk=match.pk)
    assert after.version == match.version + 1
    rows = list(Move.objects.filter(match=match).values_list("ply", flat=True))
    assert len(rows) == len(set(rows)) == after.ply_count


def test_sockets_connecting_while_the_database_ends_connections_over_and_over_open_or_try_again(
        pooled_server):
    """Every server session is ended every 50 ms while one person opens 40
    sockets in turn. Each handshake opens (before: HTTP 500 when the sign-in
    lookup lost its connection), and each socket then gets its snapshot or
    closes with 4013 "try again later", after which the page reconnects
    (before: 1011, as daphne cannot send the 1013 the consumer asked for).
    A handshake waits at most the pool's 4 s timeout for a connection that
    lives long enough (config/settings.py), below daphne's 5 s handshake
    timeout: before, with 10 s, daphne dropped such a handshake unanswered."""
    import collections
    import threading

    import psycopg
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    from accounts.close_codes import CLOSE_TRY_AGAIN

    match = make_match(seats=("human", "human"), state=ludo_state())
    player = services.WsPlayer(pooled_server, _seats(match)[0])
    stop = threading.Event()

    def storm():
        with psycopg.connect(services.test_database_url(), autocommit=True) as other:
            while not stop.wait(0.05):
                other.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE application_name = %s", [SERVER_APP])

    ending = threading.Thread(target=storm, daemon=True)
    ending.start()
    outcomes = collections.Counter()
    try:
        for _ in range(40):
            try:
                player.connect(match.public_id, open_timeout=15)
            except InvalidStatus as e:
                outcomes[f"handshake HTTP {e.response.status_code}"] += 1
                continue
            try:
                frame = player.receive(timeout=15)
                outcomes["snapshot" if 'data-kind="snapshot"' in frame else "other frame"] += 1
            except ConnectionClosed as e:
                outcomes[f"closed {e.rcvd.code if e.rcvd else None}"] += 1
            player.close()
    finally:
        stop.set()
        ending.join(10)
    assert set(outcomes) <= {"snapshot", f"closed {CLOSE_TRY_AGAIN}"}, outcomes
    assert outcomes["snapshot"] > 0, outcomes
    # And once the database stops ending connections, everything works.
    player.connect(match.public_id)
    player.until_version(match.version)
    player.close()
