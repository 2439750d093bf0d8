"""The static files storage of production (STATIC_MANIFEST=1, docs/operations.md).

``collectstatic`` copies every static file into STATIC_ROOT twice: under its
own name and under a name with the first 12 hex digits of its content's MD5
(``js/match.3f1c2a9b0d4e.js``), and writes ``staticfiles.json``, the map from
one to the other that ``{% static %}`` reads. A hashed name never changes its
content, so nginx serves it with a year's cache (deploy/nginx-production.conf.template).

The pages' scripts are native ES modules that import one another by relative
path (``import { settings } from "./settings.js"``): a browser asks for
exactly the name written there, so each collected module's imports (and
``export ... from``, and dynamic ``import("./x.js")``) are rewritten to the
hashed names, and a module whose import changed gets a new hash in turn.
Django does this with ``support_js_module_import_aggregation``; a specifier
that names no file fails ``collectstatic`` (``manifest_strict``), so nothing
half-collected is served.
"""

from pathlib import Path

from django.contrib.staticfiles.storage import ManifestStaticFilesStorage


class ModuleManifestStaticFilesStorage(ManifestStaticFilesStorage):
    """ManifestStaticFilesStorage that also rewrites ES module imports."""

    support_js_module_import_aggregation = True


class RequireManifest:
    """A check when a server builds the site's handler, not a middleware: with
    STATIC_MANIFEST on and no ``staticfiles.json`` in STATIC_ROOT every page
    would fail on its first ``{% static %}``, so the web process refuses to
    start, saying to run collectstatic. Otherwise it takes itself out of the
    chain (MiddlewareNotUsed): no cost per request."""

    def __init__(self, get_response):
        from django.conf import settings
        from django.core.exceptions import ImproperlyConfigured, MiddlewareNotUsed

        manifest = Path(settings.STATIC_ROOT) / ManifestStaticFilesStorage.manifest_name
        if getattr(settings, "STATIC_MANIFEST", False) and not manifest.is_file():
            raise ImproperlyConfigured(
                f"STATIC_MANIFEST is on but {manifest} is missing: run "
                "`python manage.py collectstatic --noinput` (with this environment) before starting the site")
        raise MiddlewareNotUsed
