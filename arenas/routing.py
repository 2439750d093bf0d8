from django.urls import path

from arenas import consumers

websocket_urlpatterns = [
    path("ws/arena/<int:arena_id>/", consumers.ArenaConsumer.as_asgi()),
]
