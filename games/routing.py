from django.urls import path

import core.converters  # noqa: F401  (registers <pid:...> and <username:...>)
from games import consumers

websocket_urlpatterns = [
    path("ws/match/<pid:public_id>/", consumers.MatchConsumer.as_asgi()),
]
