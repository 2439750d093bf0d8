"""URLs of the ranked queues (rooms have theirs in urls.py)."""

from django.urls import path

from matchmaking import views_queue

urlpatterns = [
    path("queue/", views_queue.queue_check, name="queue_check"),
    path("queue/join/", views_queue.queue_join, name="queue_join"),
    path("queue/leave/", views_queue.queue_leave, name="queue_leave"),
    path("queue/leave-match/", views_queue.queue_leave_match, name="queue_leave_match"),
    path("queue/panel/", views_queue.queue_panel, name="queue_panel"),
]
