from django.urls import path

from matchmaking import views_rooms

urlpatterns = [
    path("rooms/new/", views_rooms.room_new, name="room_new"),
    path("rooms/join/<str:token>/", views_rooms.room_join, name="room_join"),
    path("rooms/<str:code>/", views_rooms.room_page, name="room"),
    path("rooms/<str:code>/invite/", views_rooms.room_invite, name="room_invite"),
    path("rooms/<str:code>/invites/<int:invite_id>/revoke/", views_rooms.room_revoke, name="room_revoke"),
    path("rooms/<str:code>/remove/", views_rooms.room_remove, name="room_remove"),
    path("rooms/<str:code>/computer/", views_rooms.room_computer, name="room_computer"),
    path("rooms/<str:code>/start/", views_rooms.room_start, name="room_start"),
    path("rooms/<str:code>/leave/", views_rooms.room_leave, name="room_leave"),
]
