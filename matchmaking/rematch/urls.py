"""URLs of the rematch panel's forms (on a match's page)."""

from django.urls import path

import core.converters  # noqa: F401  (registers the converters used below)
from matchmaking.rematch import views

urlpatterns = [
    path("m/<pid:public_id>/rematch/", views.rematch_offer, name="rematch"),
    path("m/<pid:public_id>/rematch/accept/", views.rematch_accept, name="rematch_accept"),
    path("m/<pid:public_id>/rematch/decline/", views.rematch_decline, name="rematch_decline"),
]
