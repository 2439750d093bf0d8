from django.urls import path

import core.converters  # noqa: F401  (registers the converters used below)
from matchmaking import views_challenges, views_rematch, views_rooms

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
    path("m/<pid:public_id>/rematch/", views_rematch.rematch_offer, name="rematch"),
    path("m/<pid:public_id>/rematch/accept/", views_rematch.rematch_accept, name="rematch_accept"),
    path("m/<pid:public_id>/rematch/decline/", views_rematch.rematch_decline, name="rematch_decline"),
    path("u/<username:username>/challenge/", views_challenges.challenge_new, name="challenge_new"),
    path("challenges/incoming/", views_challenges.challenges_incoming, name="challenges_incoming"),
    path("challenges/settings/", views_challenges.challenge_settings, name="challenge_settings"),
    path("challenges/<rowid:challenge_id>/", views_challenges.challenge_page, name="challenge"),
    path("challenges/<rowid:challenge_id>/accept/", views_challenges.challenge_accept,
         name="challenge_accept"),
    path("challenges/<rowid:challenge_id>/decline/", views_challenges.challenge_decline,
         name="challenge_decline"),
    path("challenges/<rowid:challenge_id>/cancel/", views_challenges.challenge_cancel,
         name="challenge_cancel"),
]
