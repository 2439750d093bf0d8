"""Site-wide pages: home, about, the health check, and the page of an
unhandled error."""

import sys

import redis
from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.shortcuts import render
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from config import database


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


def server_error(request):
    """handler500: Django's 500 page; but when the error was the database
    ending this request's connection (``config.database.connection_lost``),
    a 503 that says so and asks to try again (Retry-After: 1 s), and the
    connection is dropped so the next request gets a fresh one (README
    "Decisions": a database that ends its connections)."""
    error = sys.exc_info()[1]
    if database.connection_lost(error):
        database.drop_connection()
        response = render(request, "503.html", status=503)
        response["Retry-After"] = "1"
        return response
    return defaults.server_error(request)
