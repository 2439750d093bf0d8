"""Test-only URLs (ROOT_URLCONF of the error tests, never the site's): the
site's own pages, a view that fails and one that writes a log line."""

import logging

from django.http import HttpResponse
from django.urls import include, path

log = logging.getLogger("tests.errors")


class Boom(RuntimeError):
    """The error the failing view raises."""


def boom(request):
    raise Boom("a test error the views did not handle")


def noted(request):
    log.info("a line written while handling %s", request.path)
    return HttpResponse("noted")


urlpatterns = [
    path("test-errors/boom/", boom),
    path("test-errors/noted/", noted),
    path("", include("config.urls")),
]

handler500 = "config.views.server_error"
