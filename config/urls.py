from django.contrib import admin
from django.urls import include, path

from config import views

urlpatterns = [
    path("", views.home, name="home"),
    path("about/", views.about, name="about"),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("", include("accounts.urls")),
    path("", include("notifications.urls")),
    path("", include("games.urls")),
    path("", include("matchmaking.urls")),
    path("", include("people.urls")),
    path("", include("arenas.urls")),
    path("", include("moderation.urls")),
    path("", include("api.urls")),
]

# An error the views did not handle; a lost database connection gets a 503.
handler500 = "config.views.server_error"
