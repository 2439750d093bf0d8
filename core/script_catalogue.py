"""The scripts' catalogue, /jsi18n/ (docs/i18n.md "Scripts").

Django's JavaScriptCatalog serves the ``djangojs`` strings of one language (locale/ and
each game folder's locale/: config/urls.py names the packages) as a classic script that
defines gettext, ngettext, pgettext, interpolate (static/js/i18n.js). base.html loads it
as ``/jsi18n/?v=<version>&l=<language>`` ({% script_catalogue %}):

- ``v``, :func:`version`, is a digest of every compiled ``djangojs`` catalogue and of
  Django's version: it changes exactly when a release changes what the view serves. The
  URL of that version is cached for a year, ``immutable`` (the browser never asks again
  within a release), and in the server's cache (``cache_page``, key prefix ``v``).
- ``l`` is the page's language, and the view serves that one (a known code; else the
  request's, as LocaleMiddleware chose it). So the URL alone decides the answer: a
  language switched in the menu loads the other language's URL, never a copy of the old
  one from the browser's cache (the headers LocaleMiddleware and the sessions add,
  ``Vary: Accept-Language, Cookie``, would not tell a language cookie's change apart).
- Any other URL (no ``v``, or an old release's) gets the current catalogue, not kept.

It is compressed here (gzip, for a browser that accepts it; cached compressed): nginx
compresses /static/ only, not what the web processes answer (a page holds secrets,
BREACH), and the catalogue holds none.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

import django
from django.apps import apps
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.cache import add_never_cache_headers, patch_cache_control
from django.views.decorators.cache import cache_page
from django.views.decorators.gzip import gzip_page

#: How long a versioned catalogue is kept (browser and server): a release changes its URL.
YEAR = 365 * 24 * 3600


def _catalogues() -> list[Path]:
    folders = [Path(p) for p in settings.LOCALE_PATHS]
    folders += [Path(app.path) / "locale" for app in apps.get_app_configs()]
    languages = [translation.to_locale(code) for code, _name in settings.LANGUAGES]
    found = {folder / code / "LC_MESSAGES" / "djangojs.mo" for folder in folders for code in languages}
    return sorted(mo for mo in found if mo.exists())


@cache
def version() -> str:
    """A digest of what the view can serve: every ``djangojs.mo`` of our languages (their
    bytes, not where they are: every web server of a release agrees) and Django's version
    (its catalogue script). Read once per process: a release restarts it."""
    digest = hashlib.sha256(django.get_version().encode())
    for each in sorted(hashlib.sha256(mo.read_bytes()).hexdigest() for mo in _catalogues()):
        digest.update(each.encode())
    return digest.hexdigest()[:16]


def url(language: str) -> str:
    """The catalogue's URL for ``language`` in this release."""
    return f"{reverse('javascript-catalog')}?v={version()}&l={language}"


def served(view):
    """``view`` (JavaScriptCatalog.as_view(...)) as /jsi18n/ serves it: see the module's text."""
    view = gzip_page(view)  # no secret in it (pages are not compressed: BREACH), 3-4 kB gzipped
    kept = cache_page(YEAR, key_prefix=f"jsi18n-{version()}")(view)
    languages = {code for code, _name in settings.LANGUAGES}

    def catalogue(request, *args, **kwargs):
        code = request.GET.get("l", "")
        current = request.GET.get("v") == version() and code in languages
        with translation.override(code if code in languages else translation.get_language()):
            response = (kept if current else view)(request, *args, **kwargs)
        if current:
            patch_cache_control(response, public=True, immutable=True)
        else:
            add_never_cache_headers(response)
        return response

    return catalogue
