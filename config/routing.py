"""WebSocket URL routes of every app."""

from django.urls import path

from games.routing import websocket_urlpatterns as games_ws
from matchmaking import queue_consumers, room_consumers

websocket_urlpatterns = [
    *games_ws,
    path("ws/room/<str:code>/", room_consumers.RoomConsumer.as_asgi()),
    path("ws/queue/", queue_consumers.QueueConsumer.as_asgi()),
]
