"""URLs of the private rooms."""

from django.urls import path

import core.converters  # noqa: F401  (registers the converters used below)
from matchmaking.rooms import views

urlpatterns = [
    path("rooms/new/", views.room_new, name="room_new"),
    path("rooms/join/<token:token>/", views.room_join, name="room_join"),
    path("rooms/<roomcode:code>/", views.room_page, name="room"),
    path("rooms/<roomcode:code>/invite/", views.room_invite, name="room_invite"),
    path("rooms/<roomcode:code>/invites/<rowid:invite_id>/revoke/", views.room_revoke,
         name="room_revoke"),
    path("rooms/<roomcode:code>/remove/", views.room_remove, name="room_remove"),
    path("rooms/<roomcode:code>/computer/", views.room_computer, name="room_computer"),
    path("rooms/<roomcode:code>/start/", views.room_start, name="room_start"),
    path("rooms/<roomcode:code>/leave/", views.room_leave, name="room_leave"),
]
