"""core.proxy.ProxyHeaders: the proxy's X-Forwarded-For and
X-Forwarded-Proto count only beside the trusted proxy's secret (README
"Production layout"). The real servers behind a real nginx are in
tests/moderation/test_client_address.py and tests/core/test_websocket_origin.py."""

import asyncio

import pytest
from django.test import override_settings

from config.cluster import new_proxy_secret, nginx_config
from core.proxy import ProxyHeaders, scope_client_ip, scope_scheme

SECRET = "a-proxy-secret-of-enough-length"


def passed_scope(headers, kind="http"):
    """The scope the application behind ProxyHeaders receives."""
    seen = {}

    async def app(scope, receive, send):
        seen.update(scope)

    scope = {"type": kind, "client": ("10.0.0.2", 5000), "scheme": "http", "headers": headers}
    asyncio.run(ProxyHeaders(app)(scope, None, None))
    return seen


FORGED = [(b"x-forwarded-for", b"198.51.100.9, 203.0.113.5"), (b"x-forwarded-proto", b"https")]


@pytest.mark.parametrize("kind", ["http", "websocket"])
@override_settings(TRUSTED_PROXY_COUNT=1, TRUSTED_PROXY_SECRET=SECRET,
                   SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
def test_with_the_secret_the_proxy_headers_count_and_the_secret_goes_no_further(kind):
    scope = passed_scope([*FORGED, (b"x-parlour-proxy", SECRET.encode()), (b"host", b"x")], kind)
    assert scope_client_ip(scope) == "203.0.113.5"
    assert scope_scheme(scope) == "https"
    assert [k for k, _ in scope["headers"]] == [b"x-forwarded-for", b"x-forwarded-proto", b"host"]


@pytest.mark.parametrize("sent", [
    [],  # a client that reached the port itself
    [(b"x-parlour-proxy", b"a-proxy-secret-of-enough-lengtX")],  # a guess
    [(b"X-Parlour-Proxy", SECRET.encode()[:-1])],  # a prefix, name in another case
    [(b"x-parlour-proxy", SECRET.encode()), (b"x-parlour-proxy", SECRET.encode())],  # two lines
    [(b"x-parlour-proxy", b"")],
])
@override_settings(TRUSTED_PROXY_COUNT=1, TRUSTED_PROXY_SECRET=SECRET,
                   SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
def test_without_the_secret_the_proxy_headers_are_dropped(sent):
    scope = passed_scope([*FORGED, *sent, (b"host", b"x")])
    assert scope_client_ip(scope) == "10.0.0.2"
    assert scope_scheme(scope) == "http"
    assert scope["headers"] == [(b"host", b"x")]


@override_settings(TRUSTED_PROXY_COUNT=0, TRUSTED_PROXY_SECRET=SECRET)
def test_with_no_trusted_proxy_even_the_secret_vouches_for_nothing():
    scope = passed_scope([*FORGED, (b"x-parlour-proxy", SECRET.encode())])
    assert scope["headers"] == []
    assert scope_client_ip(scope) == "10.0.0.2"


def test_lifespan_passes_unchanged():
    scope = passed_scope([(b"x-forwarded-for", b"1.2.3.4")], "lifespan")
    assert scope["headers"] == [(b"x-forwarded-for", b"1.2.3.4")]


def test_the_nginx_configuration_sends_the_secret_and_only_its_owner_reads_it(tmp_path):
    secret = new_proxy_secret()
    assert len(secret) == 64 and secret != new_proxy_secret()
    path = nginx_config(tmp_path, 8100, [8101, 8102], secret)
    text = path.read_text()
    assert text.count(f'proxy_set_header X-Parlour-Proxy "{secret}";') == 2  # /ws/ and /
    assert path.stat().st_mode & 0o077 == 0
