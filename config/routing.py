"""WebSocket URL routes of every app."""

from django.urls import path, re_path

import core.converters  # noqa: F401  (registers <roomcode:...>)
from arenas.routing import websocket_urlpatterns as arenas_ws
from games.consumers import NoRouteConsumer
from games.routing import websocket_urlpatterns as games_ws
from matchmaking.queue import consumers as queue_consumers
from matchmaking.rooms import consumers as room_consumers
from notifications import consumers as notify_consumers

websocket_urlpatterns = [
    *games_ws,
    *arenas_ws,
    path("ws/room/<roomcode:code>/", room_consumers.RoomConsumer.as_asgi()),
    path("ws/queue/", queue_consumers.QueueConsumer.as_asgi()),
    path("ws/notify/", notify_consumers.NotifyConsumer.as_asgi()),
    # Anything else: refused with 4004 rather than an error in the log.
    re_path(r"", NoRouteConsumer.as_asgi()),
]
