"""URLs of matchmaking: each domain's own, in this order (the queues, rooms,
rematches, challenges)."""

from django.urls import include, path

urlpatterns = [
    path("", include("matchmaking.queue.urls")),
    path("", include("matchmaking.rooms.urls")),
    path("", include("matchmaking.rematch.urls")),
    path("", include("matchmaking.challenges.urls")),
]
