"""The site's public origin (``SITE_URL``): what a link in a mail, written
where no request tells the host (a Celery task), starts with
(docs/operations.md, Configuration)."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured


def parse_site_url(value: str) -> str:
    """``value`` ("https://parlour.example", an optional port, no path) as
    the origin links start with, without a trailing "/". Raises
    ImproperlyConfigured naming the value for anything else."""
    text = value.strip().rstrip("/")
    parts = urlsplit(text)
    try:
        parts.port  # noqa: B018 - raises ValueError for a port that is not one
    except ValueError:
        parts = None
    if (parts is None or parts.scheme not in ("http", "https") or not parts.hostname
            or parts.path or parts.query or parts.fragment or parts.username or parts.password):
        raise ImproperlyConfigured(
            f"SITE_URL {value!r} is not an origin: write the scheme and host the players open, "
            "e.g. https://parlour.example (a port may follow; no path)")
    return text


def default_site_url(debug: bool, allowed_hosts: list[str], port: int) -> str:
    """SITE_URL when it is not set: ``http://localhost:<port>`` with DEBUG
    (``make run``), else ``https://`` and the first ``ALLOWED_HOSTS`` name (a
    leading "." dropped). Raises ImproperlyConfigured when there is no such
    name (none, or "*")."""
    if debug:
        return f"http://localhost:{port}"
    names = [h.strip().lstrip(".") for h in allowed_hosts if h.strip() and h.strip() != "*"]
    if not names:
        raise ImproperlyConfigured(
            "SITE_URL is not set and ALLOWED_HOSTS names no host to make it from: set SITE_URL to "
            "the site's public origin, e.g. https://parlour.example (links in mails start with it)")
    return parse_site_url(f"https://{names[0]}")


def absolute(site_url: str, path: str) -> str:
    """``path`` (starting with one "/") on the site: ``site_url`` + ``path``."""
    if not path.startswith("/") or path.startswith("//"):
        raise ValueError(f"a path on this site starts with one '/', not {path!r}")
    return site_url + path
