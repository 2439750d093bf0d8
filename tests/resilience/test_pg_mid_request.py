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
from django.db import connection
from django.test import Client

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
