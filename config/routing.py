"""WebSocket URL routes of every app."""

from games.routing import websocket_urlpatterns as games_ws

websocket_urlpatterns = [*games_ws]
