from django.urls import path

import config.converters  # noqa: F401  (registers the converters used below)
from matchmaking import views_rooms

urlpatterns = [
    path("rooms/new/", views_rooms.room_new, name="room_new"),
    path("rooms/join/<token:token>/", views_rooms.room_join, name="room_join"),
    path("rooms/<roomcode:code>/", views_rooms.room_page, name="room"),
    path("rooms/<roomcode:code>/invite/", views_rooms.room_invite, name="room_invite"),
    path("rooms/<roomcode:code>/invites/<rowid:invite_id>/revoke/", views_rooms.room_revoke,
         name="room_revoke"),
    path("rooms/<roomcode:code>/remove/", views_rooms.room_remove, name="room_remove"),
    path("rooms/<roomcode:code>/computer/", views_rooms.room_computer, name="room_computer"),
    path("rooms/<roomcode:code>/start/", views_rooms.room_start, name="room_start"),
    path("rooms/<roomcode:code>/leave/", views_rooms.room_leave, name="room_leave"),
]
