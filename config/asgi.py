"""ASGI entry point: HTTP through Django, WebSockets through Channels.

Every request first passes ``ProxyHeaders`` (``core/proxy.py``), which keeps
the proxy's X-Forwarded-For and X-Forwarded-Proto only on requests that carry
the trusted proxy's secret; then ``RequestIds`` (``core/request_ids.py``)
gives the request or socket its id (the proxy's X-Request-ID, or a new one)
for its log lines and the error page. WebSocket connections then pass the
same-origin check (``core/origin.py``) and the session auth middleware
before reaching a consumer (see ``config/routing.py``). With the error tracker on (SENTRY_DSN), the sockets
pass sentry-sdk's ASGI middleware too (HTTP requests have its Django
integration): an error in a consumer reaches the tracker with the socket's
path and request id.
"""

import os
import sys
from http import HTTPStatus

from django.core.asgi import get_asgi_application


def _name_every_status() -> None:
    """Under daphne (Twisted), a response's reason phrase comes from
    ``twisted.web.http.RESPONSES``, which lacks 422 and 429 among others: the
    API's refusals went out as "HTTP/1.1 429 Unknown Status". Fill the table
    from Python's own names. Nothing to do under uvicorn (production), which
    never imports Twisted."""
    twisted_http = sys.modules.get("twisted.web.http")
    if twisted_http is not None:
        for status in HTTPStatus:
            twisted_http.RESPONSES.setdefault(status.value, status.phrase.encode())


_name_every_status()

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from accounts.sockets import SocketAuthStack  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from core.origin import SameOriginValidator  # noqa: E402
from core.proxy import ProxyHeaders  # noqa: E402
from core.request_ids import RequestIds  # noqa: E402

websocket_app = SameOriginValidator(SocketAuthStack(URLRouter(websocket_urlpatterns)))
if settings.SENTRY_DSN:
    from sentry_sdk.integrations.asgi import SentryAsgiMiddleware

    websocket_app = SentryAsgiMiddleware(websocket_app)

application = ProxyHeaders(
    RequestIds(
        ProtocolTypeRouter(
            {
                "http": django_asgi_app,
                "websocket": websocket_app,
            }
        )
    )
)
