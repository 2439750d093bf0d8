from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from config import views
from core import script_catalogue
from games.engine import GAMES

urlpatterns = [
    path("", views.home, name="home"),
    path("about/", views.about, name="about"),
    path("healthz", views.healthz, name="healthz"),
    # The scripts' strings (the djangojs catalogues of locale/ and of each game folder),
    # cached per release and language: core/script_catalogue.py, docs/i18n.md "Scripts".
    path(
        "jsi18n/",
        script_catalogue.served(JavaScriptCatalog.as_view(packages=list(GAMES.values()))),
        name="javascript-catalog",
    ),
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
