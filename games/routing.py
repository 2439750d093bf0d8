from django.urls import path

import config.converters  # noqa: F401  (registers <pid:...> and <username:...>)
from games import consumers

websocket_urlpatterns = [
    path("ws/match/<pid:public_id>/", consumers.MatchConsumer.as_asgi()),
]
