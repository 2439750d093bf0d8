"""URLs of finding and following players."""

from django.urls import path

import core.converters  # noqa: F401  (registers the converters used below)
from people import views

urlpatterns = [
    path("people/", views.search_page, name="people_search"),
    path("people/following/", views.following_page, name="people_following"),
    path("u/<username:username>/follow/", views.follow, name="follow"),
    path("u/<username:username>/unfollow/", views.unfollow, name="unfollow"),
    path("u/<username:username>/followers/", views.followers_page, name="followers"),
    path("u/<username:username>/following/", views.followed_page, name="following"),
]
