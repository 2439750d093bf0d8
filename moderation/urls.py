from django.urls import path

import core.converters  # noqa: F401  (registers <pid:...>)
from moderation import views

urlpatterns = [
    path("m/<pid:public_id>/report/", views.report_page, name="match_report"),
]
