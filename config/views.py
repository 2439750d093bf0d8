"""Site-wide pages: home, about, the health check, and the page of an
unhandled error."""

import sys

import redis
from django.conf import settings
from django.core.signals import got_request_exception
from django.db import connection
from django.dispatch import receiver
from django.http import HttpResponseServerError, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from core import database, request_ids


@require_safe
def home(request):
    return render(request, "home.html")


@require_safe
def about(request):
    return render(request, "about.html")


@never_cache
@require_safe
def healthz(request):
    """Check the database and Redis; 200 when both answer, 503 otherwise.

    Body: ``{"database": "ok"|"error", "redis": "ok"|"error"}``.
    """
    checks = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        checks["database"] = "ok"
    except Exception:  # any failure to reach the database is "down"
        checks["database"] = "error"
    try:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
        client.ping()
        client.close()
        checks["redis"] = "ok"
    except (redis.RedisError, OSError):
        checks["redis"] = "error"
    status = 200 if all(v == "ok" for v in checks.values()) else 503
    return JsonResponse(checks, status=status)


def _lost_connection_page(request):
    """The 503 "try again" page (Retry-After: 1 s); drops the connection so
    the next request gets a fresh one."""
    database.drop_connection()
    response = render(request, "503.html", status=503)
    response["Retry-After"] = "1"
    return response


def server_error(request):
    """handler500: Django's 500 page; but when the error was the database
    ending this request's connection (``core.database.connection_lost``),
    a 503 that says so and asks to try again (README "Decisions": a database
    that ends its connections). Django calls it with DEBUG off only; errors
    in views reach ``LostConnectionMiddleware`` first, whatever DEBUG is.

    The page shows the request id (core/request_ids.py), for a player to
    quote; it is rendered without the request's context (no context
    processors: the error may have been in one of them)."""
    if database.connection_lost(sys.exc_info()[1]):
        return _lost_connection_page(request)
    page = loader.get_template("500.html").render({"request_id": request_ids.current()})
    return HttpResponseServerError(page)


class LostConnectionMiddleware:
    """A request whose database connection the server ended, in a view or in
    any middleware after this one (the session read, the log-in lookup),
    answers the 503 of ``server_error`` instead of an error page, with DEBUG
    on too (``make run`` and ``make cluster`` set it). It is the outermost
    middleware: Django turns an inner middleware's exception into a 500
    response before it reaches here, so ``_note_lost_connection`` marks the
    request when that exception was a lost connection."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code == 500 and getattr(request, "parlour_connection_lost", False):
            return _lost_connection_page(request)
        return response


@receiver(got_request_exception)
def _note_lost_connection(sender, request=None, **kwargs) -> None:
    """Django sends got_request_exception while it handles the exception."""
    if request is not None and database.connection_lost(sys.exc_info()[1]):
        request.parlour_connection_lost = True
