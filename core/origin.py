"""The WebSocket handshake's Origin check (README "Decisions").

Browsers send a page's cookies with every WebSocket it opens, whatever the
page's origin, so the handshake is the only place a socket opened by another
site's page can be told apart. Channels' AllowedHostsOriginValidator compares
host names only: a page on the same host name at another port or scheme
passed it. ``SameOriginValidator`` applies to the handshake the rule Django's
CSRF protection applies to a POST's Origin header: the Origin must be exactly
the site's own for this connection (the scheme the client's connection really
has, core/proxy.py, and the request's Host, which must be in ALLOWED_HOSTS)
or match an entry of CSRF_TRUSTED_ORIGINS. Anything else (another port or
scheme, ``null``, no Origin at all) is refused before the consumer runs:
daphne answers the handshake with 403.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest
from django.utils.http import is_same_domain

from core import proxy


def _single_header(scope, name: bytes) -> str | None:
    """The header's value when it occurs exactly once, else None."""
    values = [value for key, value in scope.get("headers", ()) if key.lower() == name]
    if len(values) != 1:
        return None
    try:
        return values[0].decode("ascii")
    except UnicodeDecodeError:
        return None


def site_origin(scope) -> str | None:
    """The site's own origin for this connection, e.g. ``"https://parlour.example"``
    or ``"http://127.0.0.1:8000"`` (Host as sent, port included when not the
    scheme's default); None when the Host header is missing, repeated or not
    in ALLOWED_HOSTS (Django's ``HttpRequest.get_host`` decides)."""
    host = _single_header(scope, b"host")
    if host is None:
        return None
    request = HttpRequest()
    request.META["HTTP_HOST"] = host
    try:
        host = request.get_host()
    except DisallowedHost:
        return None
    return f"{proxy.scope_scheme(scope)}://{host}"


def origin_allowed(scope) -> bool:
    """True when the handshake's Origin header (exactly one) is the site's own
    origin for this connection (``site_origin``) or is allowed by
    CSRF_TRUSTED_ORIGINS (exact entries, and ``scheme://*.domain`` entries
    for the domain's subdomains), as Django's CSRF check of a POST's Origin."""
    origin = _single_header(scope, b"origin")
    if origin is None or origin == "null":
        return False
    if origin == site_origin(scope):
        return True
    trusted = settings.CSRF_TRUSTED_ORIGINS
    if origin in {entry for entry in trusted if "*" not in entry}:
        return True
    try:
        parsed = urlsplit(origin)
    except ValueError:
        return False
    return any(
        parsed.scheme == pattern.scheme and is_same_domain(parsed.netloc, pattern.netloc.lstrip("*"))
        for pattern in (urlsplit(entry) for entry in trusted if "*" in entry)
    )


class SameOriginValidator:
    """ASGI middleware for WebSocket scopes: passes a handshake whose Origin
    ``origin_allowed`` accepts to ``application``; refuses any other (the
    server answers 403 and no consumer runs). Raises ValueError for a scope
    that is not a WebSocket's."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            raise ValueError("SameOriginValidator guards WebSocket connections only")
        if origin_allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
