from django.urls import path

from api import views_pages
from api.main import api

urlpatterns = [
    path("api/", views_pages.index, name="api"),
    path("api/parlour_bot.py", views_pages.bot, name="api_bot"),
    path("api/", api.urls),
]
