"""URLs of the challenges."""

from django.urls import path

import core.converters  # noqa: F401  (registers the converters used below)
from matchmaking.challenges import views

urlpatterns = [
    path("u/<username:username>/challenge/", views.challenge_new, name="challenge_new"),
    path("challenges/incoming/", views.challenges_incoming, name="challenges_incoming"),
    path("challenges/settings/", views.challenge_settings, name="challenge_settings"),
    path("challenges/<rowid:challenge_id>/", views.challenge_page, name="challenge"),
    path("challenges/<rowid:challenge_id>/accept/", views.challenge_accept,
         name="challenge_accept"),
    path("challenges/<rowid:challenge_id>/decline/", views.challenge_decline,
         name="challenge_decline"),
    path("challenges/<rowid:challenge_id>/cancel/", views.challenge_cancel,
         name="challenge_cancel"),
]
