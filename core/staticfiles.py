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

from django.contrib.staticfiles.storage import ManifestStaticFilesStorage


class ModuleManifestStaticFilesStorage(ManifestStaticFilesStorage):
    """ManifestStaticFilesStorage that also rewrites ES module imports."""

    support_js_module_import_aggregation = True
