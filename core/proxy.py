"""The client's address and the connection's scheme: one notion for the whole
site (README "Production layout").

The ASGI servers run without ``--proxy-headers`` (config/servers.py), so
``REMOTE_ADDR`` and an ASGI scope's ``client`` are always the peer that opened
the TCP connection. Proxy headers are believed only when TRUSTED_PROXY_COUNT
says reverse proxies stand in front:

- the client's address is the TRUSTED_PROXY_COUNT-th X-Forwarded-For entry
  from the right: each trusted proxy appends the address it saw, as
  deploy/nginx.conf.template's ``$proxy_add_x_forwarded_for`` does, and
  everything further left was written by the client;
- the scheme comes from X-Forwarded-Proto (SECURE_PROXY_SSL_HEADER, which
  config/settings.py sets only then; nginx overwrites that header).

Those headers count only on a request that came through the proxy: the proxy
sends ``X-Parlour-Proxy: <TRUSTED_PROXY_SECRET>`` (deploy/nginx.conf.template
overwrites whatever the client sent under that name), and ``ProxyHeaders``, the
outermost layer of config/asgi.py, removes X-Forwarded-For,
X-Forwarded-Proto and X-Request-ID (core/request_ids.py) from every request
that lacks the secret. Someone who reaches
a web process's port directly (from the same machine, say) is then seen at the
address they connect from, whatever they write. The secret header itself is
removed from every request, so no page or log downstream sees it.

Everything keyed on an address (django-axes' log-in lockout, the invite limit
of ``matchmaking.rooms``; a WebSocket consumer: ``scope_client_ip``) asks this
module; nothing reads ``REMOTE_ADDR``, a scope's ``client`` or X-Forwarded-For
itself.
"""

from __future__ import annotations

import hmac
import ipaddress

from django.conf import settings

#: The header the trusted proxy sends with TRUSTED_PROXY_SECRET as its value.
SECRET_HEADER = b"x-parlour-proxy"
#: The headers believed from the proxy only (README "Production layout"; the
#: request id: core/request_ids.py).
PROXY_HEADERS = (b"x-forwarded-for", b"x-forwarded-proto", b"x-request-id")


def forwarded_client(peer: str | None, forwarded_for: str | None) -> str | None:
    """The client's address from the TCP ``peer`` (an IP address string, or
    None) and the X-Forwarded-For header value (comma-separated; None or ""
    when absent).

    With TRUSTED_PROXY_COUNT = N > 0: the N-th entry from the right, written
    out as ``ipaddress`` does.
    ``peer`` when N is 0, when the header has fewer than N entries (a request
    that reached the server without passing the proxies), or when that entry
    is not an IP address (a proxy chain other than the one configured).
    Raises nothing."""
    count = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    if count <= 0 or not forwarded_for:
        return peer
    entries = [entry.strip() for entry in forwarded_for.split(",")]
    if len(entries) < count:
        return peer
    try:
        return str(ipaddress.ip_address(entries[-count]))
    except ValueError:
        return peer


def client_ip(request) -> str | None:
    """The client's address of a Django request (anything with ``META``),
    e.g. ``"203.0.113.7"``; None when the server gave no peer address.
    Also django-axes' AXES_CLIENT_IP_CALLABLE."""
    return forwarded_client(request.META.get("REMOTE_ADDR"), request.META.get("HTTP_X_FORWARDED_FOR"))


def _header(scope, name: bytes) -> str | None:
    """A request header of an ASGI scope, repeated lines joined with ","
    (as Django's ASGIRequest joins them); None when absent."""
    values = [value.decode("latin1") for key, value in scope.get("headers", ()) if key.lower() == name]
    return ",".join(values) if values else None


def scope_client_ip(scope) -> str | None:
    """The client's address of an ASGI ``http`` or ``websocket`` scope, by the
    same rule as ``client_ip``; None when the server gave no peer address."""
    client = scope.get("client")
    peer = client[0] if client else None
    return forwarded_client(peer, _header(scope, b"x-forwarded-for"))


def scope_scheme(scope) -> str:
    """``"https"`` or ``"http"``: the scheme the client's connection really has,
    for an ASGI ``http`` or ``websocket`` scope (``wss`` counts as ``https``).

    Behind trusted proxies (SECURE_PROXY_SSL_HEADER set), the proxy's
    X-Forwarded-Proto decides when present, by Django's own rule for HTTP
    requests (``HttpRequest.scheme``); otherwise the server's connection."""
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header:
        meta_name, secure_value = proxy_header
        name = meta_name.removeprefix("HTTP_").lower().replace("_", "-").encode("latin1")
        value = _header(scope, name)
        if value is not None:
            return "https" if value.split(",", 1)[0].strip() == secure_value else "http"
    return "https" if scope.get("scheme") in ("https", "wss") else "http"


def vouched(headers) -> bool:
    """Whether an ASGI header list (``[(name, value), ...]`` of bytes, names in
    lower case) carries the trusted proxy's secret: exactly one SECRET_HEADER
    line equal to TRUSTED_PROXY_SECRET (compared in constant time). False when
    no secret is configured or no proxy is trusted."""
    secret = getattr(settings, "TRUSTED_PROXY_SECRET", "")
    if not secret or getattr(settings, "TRUSTED_PROXY_COUNT", 0) <= 0:
        return False
    sent = [value for key, value in headers if key.lower() == SECRET_HEADER]
    return len(sent) == 1 and hmac.compare_digest(sent[0], secret.encode("latin1"))


class ProxyHeaders:
    """ASGI middleware, outermost in config/asgi.py: on ``http`` and
    ``websocket`` scopes, drops X-Forwarded-For, X-Forwarded-Proto and
    X-Request-ID (``PROXY_HEADERS``) unless
    the request carries the trusted proxy's secret (``vouched``), and drops
    the secret header always. Other scopes (``lifespan``) pass unchanged."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            headers = scope.get("headers", ())
            dropped = (SECRET_HEADER,) if vouched(headers) else (SECRET_HEADER, *PROXY_HEADERS)
            scope = dict(scope, headers=[(k, v) for k, v in headers if k.lower() not in dropped])
        return await self.app(scope, receive, send)
