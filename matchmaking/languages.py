"""Which language the lobby's pushes speak (docs/i18n.md, "Lobby and arenas").

A frame rendered away from a request (a queue wave, a lobby change, an arena
standing, a note) is rendered in its reader's language: a signed-in
player's is their account's (``accounts.languages.of``: chosen in the
language menu, or set at sign-up), so the pusher knows it without asking
their sockets. An arena's page may be watched by anyone, signed in or not:
its socket reads its language from the handshake as a request would
(``of_scope``).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.translation import trans_real

from accounts import languages
from accounts.models import User


def of_users(user_ids: Iterable[int]) -> dict[int, str]:
    """user id -> the language to write to them in (``accounts.languages.of``),
    for every id of ``user_ids`` (one query; "en" for one that is gone)."""
    ids = set(user_ids)
    if not ids:
        return {}
    chosen = dict(User.objects.filter(pk__in=ids).values_list("pk", "language"))
    return {pk: languages.valid(chosen.get(pk)) or settings.LANGUAGE_CODE for pk in ids}


def by_language(user_ids: Iterable[int]) -> dict[str, list[int]]:
    """language -> the users of ``user_ids`` who read it (``of_users``), so
    a frame that names nobody is rendered once per language among them."""
    out: dict[str, list[int]] = {}
    for pk, code in of_users(user_ids).items():
        out.setdefault(code, []).append(pk)
    return out


def _header(scope, name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1")
    return ""


def of_scope(scope) -> str:
    """The language a WebSocket handshake's page was rendered in, as
    ``LocaleMiddleware`` chooses it for a request: a signed-in user's chosen
    language, else Django's language cookie, else the Accept-Language
    header, else settings.LANGUAGE_CODE (URLs carry no language)."""
    chosen = languages.valid(getattr(scope.get("user"), "language", None))
    if chosen:
        return chosen
    cookie = languages.valid(parse_cookie(_header(scope, b"cookie")).get(settings.LANGUAGE_COOKIE_NAME))
    if cookie:
        return cookie
    for code, _quality in trans_real.parse_accept_lang_header(_header(scope, b"accept-language")):
        if code == "*":
            break
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE
