from django.urls import path

from games import consumers

websocket_urlpatterns = [
    path("ws/match/<str:public_id>/", consumers.MatchConsumer.as_asgi()),
]
