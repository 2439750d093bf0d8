"""URLs of the ranked queues."""

from django.urls import path

from matchmaking.queue import views

urlpatterns = [
    path("queue/", views.queue_check, name="queue_check"),
    path("queue/join/", views.queue_join, name="queue_join"),
    path("queue/leave/", views.queue_leave, name="queue_leave"),
    path("queue/leave-match/", views.queue_leave_match, name="queue_leave_match"),
    path("queue/panel/", views.queue_panel, name="queue_panel"),
    path("queue/turn-based/join/", views.turn_based_join, name="turn_based_join"),
    path("queue/turn-based/leave/", views.turn_based_leave, name="turn_based_leave"),
]
