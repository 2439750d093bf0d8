"""WebSocket URL routes of every app."""

websocket_urlpatterns: list = []
