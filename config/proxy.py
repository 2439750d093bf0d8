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

Everything keyed on an address (django-axes' log-in lockout, the invite limit
of ``matchmaking.rooms``; a WebSocket consumer: ``scope_client_ip``) asks this
module; nothing reads ``REMOTE_ADDR``, a scope's ``client`` or X-Forwarded-For
itself.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


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
