"""The database ends a connection in the middle of a request (README
"Decisions": a database that ends its connections), in this process on the
PostgreSQL test database: a page load answers 503 "try again" (never a 500)
and the next one works; a posted move whose match lookup lost its connection
is played once, on a fresh connection; a socket's snapshot likewise, and one
that loses it twice gets an error frame, not a crash (close 1011).
PostgreSQL only: SQLite has no server to end connections."""

import asyncio

import psycopg
import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connection
from django.test import Client

from accounts import sockets
from config.asgi import application
from games import consumers
from games.engine import get_rules
from games.models import Match, Move
from tests import services
from tests.factories import ludo_state, make_match

pytestmark = [
    pytest.mark.resilience,
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="needs PostgreSQL (DATABASE_URL=postgres://...): it ends the "
                              "database server's connections, which SQLite does not have"),
]


def end_own_connection() -> None:
    """End this thread's database connection from another session, as
    pg_terminate_backend (a restart, a failover) does."""
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    with psycopg.connect(services.test_database_url(), autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


class EndOnQuery:
    """An execute wrapper that ends the connection before the first ``times``
    statements that read ``table``."""

    def __init__(self, table: str, times: int = 1):
        self.table, self.left = table, times

    def __call__(self, execute, sql, params, many, context):
        if self.left and f'"{self.table}"' in sql:
            self.left -= 1
            end_own_connection()
        return execute(sql, params, many, context)


@pytest.mark.django_db(transaction=True)
def test_a_page_whose_connection_ends_mid_request_answers_503_and_the_next_works():
    match = make_match(seats=("human", "human"), state=ludo_state())
    client = Client(raise_request_exception=False)
    with connection.execute_wrapper(EndOnQuery("games_match")):
        response = client.get(f"/m/{match.public_id}/")
    assert response.status_code == 503 and response["Retry-After"] == "1"
    assert "lost its connection to the database" in response.text
    assert client.get(f"/m/{match.public_id}/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_with_debug_on_too_the_page_answers_503(settings):
    """make run and make cluster set DEBUG, and Django's handler500 is for DEBUG off."""
    settings.DEBUG = True
    match = make_match(seats=("human", "human"), state=ludo_state())
    client = Client(raise_request_exception=False)
    with connection.execute_wrapper(EndOnQuery("games_match")):
        response = client.get(f"/m/{match.public_id}/")
    assert response.status_code == 503 and "lost its connection to the database" in response.text


@pytest.mark.django_db(transaction=True)
def test_a_connection_lost_in_a_middleware_answers_503_with_debug_on(settings):
    """The session read happens in SessionMiddleware's lazy user, before the view."""
    settings.DEBUG = True
    match = make_match(seats=("human", "human"), state=ludo_state())
    client = Client(raise_request_exception=False)
    client.force_login(match.seats.get(index=0).user)
    with connection.execute_wrapper(EndOnQuery("django_session")):
        response = client.get(f"/m/{match.public_id}/")
    assert response.status_code == 503 and "lost its connection to the database" in response.text
    assert client.get(f"/m/{match.public_id}/").status_code == 200


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_over_asgi_with_debug_on_every_lost_connection_answers_503(settings, monkeypatch):
    """Through Django's ASGI handler, as under daphne: the view runs in one
    thread and Django handles its exception in another, whose connection is
    not the view's; DEBUG's error page opens one there. Each request whose
    view lost its connection answers 503, not only the first (before, the
    second was DEBUG's 500: core.database, LOST_MARK)."""
    from asgiref.sync import sync_to_async
    from django.test import AsyncClient

    from games import history

    settings.DEBUG = True
    match = await sync_to_async(make_match)(seats=("human", "human"), state=ludo_state())
    user = await sync_to_async(lambda: match.seats.get(index=0).user)()
    real = history.history_rows

    def ending(*args, **kwargs):
        end_own_connection()  # in the view's thread, on its connection
        return real(*args, **kwargs)

    monkeypatch.setattr(history, "history_rows", ending)
    client = AsyncClient(raise_request_exception=False)
    statuses = [(await client.get(f"/u/{user.username}/matches/")).status_code for _ in range(3)]
    assert statuses == [503, 503, 503]
    monkeypatch.setattr(history, "history_rows", real)
    assert (await client.get(f"/u/{user.username}/matches/")).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_posted_move_whose_lookup_lost_its_connection_is_played_once():
    match = make_match(seats=("human", "human"), state=ludo_state())
    user = match.seats.get(index=0).user
    client = Client(raise_request_exception=False)
    client.force_login(user)
    rules = get_rules("ludo")
    move = str(rules.legal_moves(rules.load(match.state))[0])
    with connection.execute_wrapper(EndOnQuery("games_match")):
        response = client.post(f"/m/{match.public_id}/move/", {"move": move, "version": match.version})
    assert response.status_code == 302
    assert Match.objects.get(pk=match.pk).version > match.version
    assert Move.objects.filter(match=match, notation=move).count() == 1


def _snapshot_ending(times: int):
    real, left = consumers._snapshot, [times]

    def snapshot(*args):
        if left[0]:
            left[0] -= 1
            end_own_connection()
        return real(*args)

    return snapshot


async def _sync_frames(public_id: str) -> list:
    comm = WebsocketCommunicator(application, f"/ws/match/{public_id}/",
                                 headers=[(b"host", b"localhost:8300"), (b"origin", b"http://localhost:8300")])
    connected, _ = await comm.connect(timeout=10)
    assert connected
    frames = [await comm.receive_output(timeout=10)]  # the snapshot sent at connect
    await comm.send_to(text_data='{"type": "sync"}')
    frames.append(await comm.receive_output(timeout=10))
    await comm.disconnect()
    return frames


@pytest.mark.django_db(transaction=True)
def test_a_sockets_snapshot_whose_connection_ends_is_read_again(monkeypatch):
    match = make_match(seats=("human", "human"), state=ludo_state())
    monkeypatch.setattr(consumers, "_snapshot", _snapshot_ending(1))
    frames = asyncio.run(_sync_frames(match.public_id))
    assert [f["type"] for f in frames] == ["websocket.send", "websocket.send"]
    assert all('data-kind="snapshot"' in f["text"] for f in frames)


@pytest.mark.django_db(transaction=True)
def test_a_sockets_sync_that_loses_its_connection_twice_gets_an_error_frame(monkeypatch):
    match = make_match(seats=("human", "human"), state=ludo_state())
    real = consumers._snapshot
    calls = []

    def snapshot(*args):
        calls.append(args)
        if len(calls) > 1 and len(calls) <= 3:  # the sync's try and its retry; not the connect's
            end_own_connection()
        return real(*args)

    monkeypatch.setattr(consumers, "_snapshot", snapshot)
    frames = asyncio.run(_sync_frames(match.public_id))
    assert 'data-kind="snapshot"' in frames[0]["text"]
    assert frames[1]["type"] == "websocket.send", frames[1]  # not a close with 1011
    assert "lost its connection to the database" in frames[1]["text"]


def _session_read_ending(monkeypatch, times: int) -> list:
    """Make the next ``times`` session reads (the handshake's sign-in, on
    Channels' database thread) end their connection first; returns the list
    that gets one entry per read."""
    from django.contrib.sessions.backends.db import SessionStore

    real, reads = SessionStore._get_session_from_db, []

    def read(self):
        reads.append(1)
        if len(reads) <= times:
            end_own_connection()
        return real(self)

    monkeypatch.setattr(SessionStore, "_get_session_from_db", read)
    return reads


async def _signed_in_connect(public_id: str, cookie: str) -> list:
    comm = WebsocketCommunicator(application, f"/ws/match/{public_id}/", headers=[
        (b"host", b"localhost:8300"), (b"origin", b"http://localhost:8300"),
        (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())])
    connected, _ = await comm.connect(timeout=10)
    assert connected
    outputs = [await comm.receive_output(timeout=10)]  # the snapshot, or the close
    await comm.disconnect()
    return outputs


def _cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


@pytest.mark.django_db(transaction=True)
def test_a_handshake_whose_session_read_loses_its_connection_reads_it_again(monkeypatch):
    """Before, the sign-in lookup was not retried: the handshake got HTTP 500."""
    match = make_match(seats=("human", "human"), state=ludo_state())
    cookie = _cookie(match.seats.get(index=0).user)
    # Ending a connection, then the pool's check and a fresh connection, can
    # take longer than the sign-in's 3 s on a loaded machine; that bound has its
    # own test (tests/accounts/test_socket_sign_in.py).
    monkeypatch.setattr(sockets, "SIGN_IN_SECONDS", 30)
    reads = _session_read_ending(monkeypatch, 1)
    outputs = asyncio.run(_signed_in_connect(match.public_id, cookie))
    assert len(reads) == 2
    assert [o["type"] for o in outputs] == ["websocket.send"], outputs
    assert 'data-kind="snapshot"' in outputs[0]["text"]
    assert 'id="board-choices"' in outputs[0]["text"]  # signed in: the seat's own part


@pytest.mark.django_db(transaction=True)
def test_a_handshake_whose_session_read_loses_its_connection_twice_closes_with_4013(monkeypatch):
    """4013 "try again later", which the pages reconnect after (not 1013:
    daphne cannot send it and closes with 1011 instead)."""
    from accounts.close_codes import CLOSE_TRY_AGAIN

    match = make_match(seats=("human", "human"), state=ludo_state())
    cookie = _cookie(match.seats.get(index=0).user)
    monkeypatch.setattr(sockets, "SIGN_IN_SECONDS", 30)
    reads = _session_read_ending(monkeypatch, 2)
    outputs = asyncio.run(_signed_in_connect(match.public_id, cookie))
    assert len(reads) == 2
    assert outputs == [{"type": "websocket.close", "code": CLOSE_TRY_AGAIN}]
    assert CLOSE_TRY_AGAIN == 4013
