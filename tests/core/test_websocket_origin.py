"""The WebSocket handshake's Origin check (core/origin.py): only the site's
own origin for the connection (scheme, host and port), or an entry of
CSRF_TRUSTED_ORIGINS, opens a socket. A page on the same host name at another
port or scheme, a ``null`` origin and a handshake without one are refused
before any consumer runs: through Channels' communicator on the full ASGI
application, and through a real daphne with a player's session cookie."""

from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client, override_settings

from config.asgi import application
from tests import services
from tests.factories import ludo_state, make_match

HOST = "localhost:8300"
PROXY_SECRET = "the-proxy-secret-of-this-module"
BEHIND_TLS_PROXY = {"TRUSTED_PROXY_COUNT": 1, "TRUSTED_PROXY_SECRET": PROXY_SECRET,
                    "SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https")}


@sync_to_async
def public_match():
    return make_match(seats=("human", "human"), state=ludo_state())


async def opens(origin: str | None, host: str = HOST, scheme: str = "ws", **headers) -> bool:
    """Whether the full application accepts a spectator's handshake to a live
    match with this Origin (None: no Origin header) and Host."""
    match = await public_match()
    sent = [(b"host", host.encode())]
    if origin is not None:
        sent.append((b"origin", origin.encode()))
    sent += [(name.replace("_", "-").encode(), value.encode()) for name, value in headers.items()]
    comm = WebsocketCommunicator(application, f"/ws/match/{match.public_id}/", headers=sent)
    comm.scope["scheme"] = scheme
    connected, _ = await comm.connect(timeout=5)
    if connected:
        assert 'data-kind="snapshot"' in await comm.receive_from(timeout=5)
    await comm.disconnect()
    return connected



@pytest.mark.parametrize("origin", [
    pytest.param("http://localhost:8499", id="another port"),
    pytest.param("http://localhost", id="the default port"),
    pytest.param("https://localhost:8300", id="another scheme"),
    pytest.param("null", id="null"),
    pytest.param(None, id="none"),
    pytest.param("http://localhost:8300, http://localhost:8300", id="a list"),
])
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_only_the_sites_own_origin_opens_a_socket(origin):
    assert not await opens(origin)
    assert await opens("http://localhost:8300")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_host_must_be_an_allowed_host():
    assert not await opens("http://evil.example:8300", host="evil.example:8300")
    assert not await opens("http://localhost:8300", host="")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_behind_a_trusted_tls_proxy_the_origin_is_https():
    with override_settings(**BEHIND_TLS_PROXY):
        proxied = {"x_parlour_proxy": PROXY_SECRET}
        assert await opens("https://localhost:8300", x_forwarded_proto="https", **proxied)
        assert not await opens("http://localhost:8300", x_forwarded_proto="https", **proxied)
        assert await opens("http://localhost:8300", x_forwarded_proto="http", **proxied)
        # Not through the proxy (no secret): the header is dropped, the connection's scheme counts.
        assert not await opens("https://localhost:8300", x_forwarded_proto="https")
        assert await opens("http://localhost:8300", x_forwarded_proto="https")
        assert await opens("https://localhost:8300", scheme="wss")  # no header: the connection's own


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_without_a_proxy_a_clients_forwarded_proto_is_ignored():
    assert not await opens("https://localhost:8300", x_forwarded_proto="https")
    assert await opens("http://localhost:8300", x_forwarded_proto="https")
    assert await opens("https://localhost:8300", scheme="wss")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_csrf_trusted_origins_open_a_socket_by_scheme_host_and_port():
    with override_settings(CSRF_TRUSTED_ORIGINS=["https://play.parlour.example", "https://*.games.example"]):
        assert await opens("https://play.parlour.example")
        assert await opens("https://eu.games.example")
        assert not await opens("http://play.parlour.example")
        assert not await opens("https://play.parlour.example:8443")
        assert not await opens("https://games.example.evil")


# --- Through a real daphne, with the player's own session cookie ------------------


def handshake(base_url: str, path: str, user, origin: str | None, **headers) -> int:
    """Open a socket on a real server as ``user`` with this Origin (None: none
    sent); returns 101 when it opened (after reading its first frame), else
    the HTTP status of the refused handshake."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    sent = [("Cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}"), *headers.items()]
    try:
        with connect(base_url.replace("http://", "ws://") + path, origin=origin, additional_headers=sent,
                     proxy=None, open_timeout=10) as ws:
            assert 'data-kind="snapshot"' in ws.recv(timeout=10)
            return 101
    except InvalidStatus as e:
        return e.response.status_code


def seat_user(match):
    return match.seats.select_related("user").get(index=0).user


@pytest.mark.slow
def test_a_real_server_refuses_a_foreign_origin_at_the_handshake(live_server_url):
    match = make_match(seats=("human", "human"), state=ludo_state())
    victim, path = seat_user(match), f"/ws/match/{match.public_id}/"
    port = int(live_server_url.rsplit(":", 1)[1])
    assert handshake(live_server_url, path, victim, f"http://127.0.0.1:{port + 1}") == 403
    assert handshake(live_server_url, path, victim, f"https://127.0.0.1:{port}") == 403
    assert handshake(live_server_url, path, victim, "null") == 403
    assert handshake(live_server_url, path, victim, None) == 403
    assert handshake(live_server_url, path, victim, live_server_url) == 101


@pytest.mark.slow
def test_a_real_server_behind_a_tls_proxy_takes_the_proxys_scheme(transactional_db, django_db_blocker):
    with django_db_blocker.unblock():
        svc, url = services.start_daphne("daphne-behind-tls", **services.behind_proxy())
    try:
        match = make_match(seats=("human", "human"), state=ludo_state())
        victim, path = seat_user(match), f"/ws/match/{match.public_id}/"
        site = url.replace("http://", "https://")
        proxied = {"X-Forwarded-Proto": "https", "X-Parlour-Proxy": services.PROXY_SECRET}
        assert handshake(url, path, victim, site, **proxied) == 101
        assert handshake(url, path, victim, url, **proxied) == 403
        # Without the proxy's secret (a client that reached the port itself) the header is dropped.
        assert handshake(url, path, victim, site, **{"X-Forwarded-Proto": "https"}) == 403
        wrong = {"X-Forwarded-Proto": "https", "X-Parlour-Proxy": services.PROXY_SECRET[:-1] + "x"}
        assert handshake(url, path, victim, site, **wrong) == 403
        assert handshake(url, path, victim, url, **{"X-Forwarded-Proto": "https"}) == 101
    finally:
        svc.stop()


@pytest.mark.slow
def test_through_nginx_the_pages_own_origin_opens_a_socket(transactional_db, django_db_blocker):
    """deploy/nginx.conf.template passes Host as sent and its own X-Forwarded-Proto:
    the page's origin is nginx's, and only that one opens a socket."""
    if not Path(services.NGINX).exists():
        pytest.skip(f"nginx is not installed ({services.NGINX}): apt-get install nginx")
    port = services.free_port()
    with django_db_blocker.unblock():
        web, _ = services.start_daphne("web1", port, **services.behind_proxy())
    proxy = None
    try:
        proxy, url = services.start_nginx([port])
        match = make_match(seats=("human", "human"), state=ludo_state())
        victim, path = seat_user(match), f"/ws/match/{match.public_id}/"
        assert handshake(url, path, victim, url) == 101
        assert handshake(url, path, victim, f"http://127.0.0.1:{port}") == 403  # the daphne port's page
        assert handshake(url, path, victim, url.replace("http://", "https://")) == 403
    finally:
        if proxy is not None:
            proxy.stop()
        web.stop()
