"""ASGI entry point: HTTP through Django, WebSockets through Channels.

Every request first passes ``ProxyHeaders`` (``core/proxy.py``), which keeps
the proxy's X-Forwarded-For and X-Forwarded-Proto only on requests that carry
the trusted proxy's secret. WebSocket connections then pass the same-origin check (``core/origin.py``) and
the session auth middleware before reaching a consumer (see
``config/routing.py``).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from accounts.sockets import SocketAuthStack  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from core.origin import SameOriginValidator  # noqa: E402
from core.proxy import ProxyHeaders  # noqa: E402

application = ProxyHeaders(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": SameOriginValidator(
                SocketAuthStack(URLRouter(websocket_urlpatterns))
            ),
        }
    )
)
