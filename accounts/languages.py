"""Which language a person reads (docs/i18n.md).

A signed-in person's choice is kept on their account (``User.language``), a
visitor's in Django's language cookie; without either, the browser's
Accept-Language decides (``django.middleware.locale.LocaleMiddleware``). Mail,
pushed frames and notifications, rendered away from the person's request, use
``of(user)``.
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from django.conf import settings
from django.utils import translation

#: The codes of settings.LANGUAGES ("en", "hi", "es", "de", "ar").
CODES = frozenset(code for code, _name in settings.LANGUAGES)


def valid(code: str | None) -> str | None:
    """``code`` when it is one of the site's languages, else None."""
    return code if code in CODES else None


def of(user) -> str:
    """The language to write to ``user`` in when no request of theirs says
    (mail, pushed frames): their account's choice, else the site's default
    (settings.LANGUAGE_CODE). ``user``: a User, or None / anonymous."""
    return valid(getattr(user, "language", None)) or settings.LANGUAGE_CODE


def speaking(user, fallback: str | None = None) -> AbstractContextManager:
    """A context manager: ``user``'s language (``of``) active inside it, the
    one before restored after. For mail and anything rendered for one person
    outside their request. ``fallback``: the language of the request that
    caused it (e.g. the reset form's), used when ``user`` chose none; a code
    that is not one of the site's is ignored."""
    chosen = valid(getattr(user, "language", None))
    return translation.override(chosen or valid(fallback) or settings.LANGUAGE_CODE)


def current() -> str | None:
    """The active language when it is one of the site's (a request's, to
    hand on to what it queues: ``speaking``'s ``fallback``), else None."""
    return valid(translation.get_language())


class AccountLanguageMiddleware:
    """A signed-in person reads the site in the language kept on their
    account, wherever they sign in; without one, LocaleMiddleware's choice
    (cookie, else Accept-Language) stands. Sits after AuthenticationMiddleware
    (and after LocaleMiddleware, whose response headers then name this
    language)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        code = valid(user.language) if user is not None and user.is_authenticated else None
        if code is not None and code != getattr(request, "LANGUAGE_CODE", None):
            translation.activate(code)
            request.LANGUAGE_CODE = code
        return self.get_response(request)
