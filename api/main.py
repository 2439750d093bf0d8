"""The ``NinjaAPI`` instance: its routers, and the handlers that turn every
error into the API's JSON error (``api.errors``)."""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from api import views_account, views_match, views_play, views_records
from api.errors import ApiError

api = NinjaAPI(title="Parlour bot and board API", version="1", urls_namespace="api", docs_url=None,
               openapi_url=None)


def _error(request, err: ApiError):
    response = api.create_response(request, err.body(), status=err.status)
    for name, value in err.headers.items():
        response[name] = value
    return response


@api.exception_handler(ApiError)
def api_error(request, exc: ApiError):
    return _error(request, exc)


@api.exception_handler(AuthenticationError)
def unauthorized(request, exc):
    return _error(request, ApiError(401, "unauthorized",
                                    "Send a live token: the header Authorization: Bearer plr_..."))


@api.exception_handler(ValidationError)
def invalid(request, exc: ValidationError):
    fields = [".".join(map(str, e.get("loc", ()))) for e in exc.errors]
    return _error(request, ApiError(400, "bad_request",
                                    "The request's fields are missing or of the wrong type.",
                                    extra={"fields": fields}))


@api.exception_handler(RequestDataTooBig)
def too_large(request, exc):
    # Django's own answer is an HTML 400 (a 500 where ninja reads the body).
    return _error(request, ApiError(413, "too_large", "The request's body is too large."))


@api.exception_handler(HttpError)
def http_error(request, exc: HttpError):
    return _error(request, ApiError(exc.status_code, "bad_request", str(exc)))


api.add_router("", views_account.router)
api.add_router("", views_match.router)
api.add_router("", views_play.router)
api.add_router("", views_records.router)
