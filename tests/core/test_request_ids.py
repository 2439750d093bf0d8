"""Request ids (core/request_ids.py): every HTTP request and every WebSocket
gets one, taken from the trusted proxy's X-Request-ID or made anew; it is on
every log line written for the request or socket (in the socket's database
calls and action threads too), in the response's X-Request-ID header and on
the 500 page. Driven through the full ASGI application (config/asgi.py)."""

import asyncio
import logging
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator, WebsocketCommunicator
from django.conf import settings
from django.test import Client, override_settings

from config.asgi import application
from core import request_ids
from core.request_ids import RequestIdFilter
from core.sockets.loop_tasks import PerLoop
from games import consumers
from tests.factories import ludo_state, make_match

SECRET = "the-proxy-secret-of-the-request-id-tests"
BEHIND_PROXY = {"TRUSTED_PROXY_COUNT": 1, "TRUSTED_PROXY_SECRET": SECRET,
                "ROOT_URLCONF": "tests.core.error_urls"}
NGINX_ID = "0123456789abcdef0123456789abcdef"  # the shape of nginx's $request_id
HEX32 = re.compile(r"[0-9a-f]{32}")


@pytest.fixture
def lines():
    """The log records written during the test, each with its request_id."""
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record)

    keep = Keep(logging.DEBUG)
    keep.addFilter(RequestIdFilter())
    root = logging.getLogger()
    root.addHandler(keep)
    yield records
    root.removeHandler(keep)


def of(lines, text):
    """The request ids of the lines whose message holds ``text``."""
    return [r.request_id for r in lines if text in r.getMessage()]


async def get(path, *headers):
    comm = HttpCommunicator(application, "GET", path, headers=[(b"host", b"testserver"), *headers])
    response = await comm.get_response(timeout=10)
    return response["status"], dict(response["headers"]), response["body"].decode()


pytestmark = pytest.mark.asyncio


@override_settings(**BEHIND_PROXY)
async def test_a_request_has_one_id_in_its_log_lines_and_its_response_header(lines):
    status, headers, _ = await get("/test-errors/noted/")
    assert status == 200
    rid = headers[b"x-request-id"].decode()
    assert HEX32.fullmatch(rid)
    assert of(lines, "a line written while handling /test-errors/noted/") == [rid]
    _, again, _ = await get("/test-errors/noted/")
    assert again[b"x-request-id"].decode() != rid  # each request its own


@override_settings(**BEHIND_PROXY)
async def test_the_500_page_shows_the_id_the_header_and_the_error_line_carry(lines):
    status, headers, body = await get("/test-errors/boom/", (b"x-parlour-proxy", SECRET.encode()),
                                      (b"x-request-id", NGINX_ID.encode()))
    assert status == 500
    assert headers[b"x-request-id"] == NGINX_ID.encode()
    assert f'<code id="request-id">{NGINX_ID}</code>' in body
    assert of(lines, "Internal Server Error: /test-errors/boom/") == [NGINX_ID]


@pytest.mark.parametrize("sent", [
    [(b"x-request-id", NGINX_ID.encode())],  # a client that names its own id: no secret
    [(b"x-parlour-proxy", b"a guess at the secret"), (b"x-request-id", NGINX_ID.encode())],
    [(b"x-parlour-proxy", SECRET.encode()), (b"x-request-id", b"a" * 65)],  # too long
    [(b"x-parlour-proxy", SECRET.encode()), (b"x-request-id", b"short")],  # too short
    [(b"x-parlour-proxy", SECRET.encode()), (b"x-request-id", b"id with spaces and <html>")],
    [(b"x-parlour-proxy", SECRET.encode()), (b"x-request-id", NGINX_ID.encode()),
     (b"x-request-id", b"fedcba9876543210fedcba9876543210")],  # two lines
])
@override_settings(**BEHIND_PROXY)
async def test_an_id_not_sent_well_by_the_trusted_proxy_is_replaced_by_a_new_one(lines, sent):
    status, headers, body = await get("/test-errors/boom/", *sent)
    rid = headers[b"x-request-id"].decode()
    assert HEX32.fullmatch(rid) and rid != NGINX_ID
    assert f'<code id="request-id">{rid}</code>' in body
    assert of(lines, "Internal Server Error: /test-errors/boom/") == [rid]


@sync_to_async
def seated_player_and_cookie():
    match = make_match(seats=("human", "human"), state=ludo_state())
    user = match.seats.get(index=0).user
    client = Client()
    client.force_login(user)
    return match, f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


@pytest.mark.django_db(transaction=True)
@override_settings(**BEHIND_PROXY)
async def test_a_sockets_lines_carry_its_id_from_its_database_calls_and_action_thread_too(
        lines, monkeypatch):
    """The id is set once, at the handshake; the socket's database calls
    (Channels' thread), its moves (an action thread) and its own task all
    write lines under it."""
    version = consumers._version

    def noted_version(public_id):
        logging.getLogger("tests.errors").info("version read on the database thread")
        return version(public_id)

    monkeypatch.setattr(consumers, "_version", noted_version)
    match, cookie = await seated_player_and_cookie()
    comm = WebsocketCommunicator(application, f"/ws/match/{match.public_id}/", headers=[
        (b"host", b"testserver"), (b"origin", b"http://testserver"), (b"cookie", cookie.encode()),
        (b"x-parlour-proxy", SECRET.encode()), (b"x-request-id", NGINX_ID.encode())])
    connected, _ = await comm.connect(timeout=5)
    assert connected
    assert 'data-kind="snapshot"' in await comm.receive_from(timeout=5)
    await comm.send_json_to({"move": "not-a-move", "version": str(match.version)})
    assert "error" in await comm.receive_from(timeout=5)  # refused on the action thread
    await comm.send_to(text_data="x" * (settings.PARLOUR_WS_MAX_FRAME + 1))
    assert (await comm.receive_output(timeout=5))["code"] == 4009  # refused in the socket's task
    await comm.disconnect()
    assert of(lines, f"ws {match.public_id}: refused a move") == [NGINX_ID]
    assert of(lines, "version read on the database thread") == [NGINX_ID]
    assert of(lines, "closed with 4009") == [NGINX_ID]


async def test_a_task_serving_the_whole_process_carries_no_sockets_id():
    """A per-loop task (core/sockets/loop_tasks.py: the heartbeats, the session
    re-checks) is started by the first socket that needs it, in a copy of that
    socket's context: it clears the id, so its lines are no socket's."""
    seen = asyncio.get_running_loop().create_future()

    class Noting(PerLoop):
        async def run(self, members):
            seen.set_result(request_ids.current())

    class Socket:
        pass

    token = request_ids.request_id.set(NGINX_ID)  # as RequestIds sets it for a socket
    try:
        socket = Socket()
        Noting().add(socket)
        assert request_ids.current() == NGINX_ID  # the socket's own context keeps its id
    finally:
        request_ids.request_id.reset(token)
    assert await asyncio.wait_for(seen, 5) == request_ids.NONE
