"""Errors that reach someone (docs/operations.md, "Errors that reach someone,
and housekeeping"): the ``ADMINS`` setting read from the environment, the
handler that mails them an error (``AdminMailHandler``), the filter that keeps
secrets out of every error report (``SafeReporterFilter``) and the optional
error tracker (``init_sentry``, sentry-sdk, off unless ``SENTRY_DSN`` is set).

Every report carries the request id of the request or socket it came from
(core/request_ids.py): the mail in its first line, the tracker as the tag
``request_id``.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from email.utils import formataddr, parseaddr

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.core.validators import validate_email
from django.utils.log import AdminEmailHandler
from django.views.debug import SafeExceptionReporterFilter

from core import request_ids

# A comma outside double quotes: "Doe, Jane" <jane@example.org> is one entry.
_ENTRY_SEPARATOR = re.compile(r',(?=(?:[^"]*"[^"]*")*[^"]*$)')


def parse_addresses(name: str, value: str) -> list[str]:
    """The addresses of an environment variable ``name`` whose ``value`` is
    comma-separated entries ``Name <user@host>`` or ``user@host``, e.g.
    ``"Ops <ops@example.org>, dev@example.org"`` -> ``["Ops <ops@example.org>",
    "dev@example.org"]`` (Django's ADMINS: a list of address strings). ""
    gives []. Raises ImproperlyConfigured naming the first entry that is not
    one address."""
    if not value.strip():
        return []
    addresses = []
    for entry in _ENTRY_SEPARATOR.split(value):
        display, address = parseaddr(entry.strip())
        try:
            validate_email(address)
        except ValidationError:
            raise ImproperlyConfigured(
                f"{name}: {entry.strip()!r} is not an e-mail address. Write comma-separated "
                f"entries 'Name <user@example.org>' or 'user@example.org'.") from None
        addresses.append(formataddr((display, address)))
    return addresses


class SafeReporterFilter(SafeExceptionReporterFilter):
    """DEFAULT_EXCEPTION_REPORTER_FILTER: what an error report (the ADMINS
    mail; the debug page) shows of the settings, the request's headers and
    its cookies. Django's filter already hides every name matching
    API|AUTH|TOKEN|KEY|SECRET|PASS|SIGNATURE|HTTP_COOKIE (TRUSTED_PROXY_SECRET,
    SECRET_KEY, the Cookie header, the csrftoken cookie, htmx's X-CSRFToken
    header) and the session cookie. This one also hides the request's
    CSRF_COOKIE (its CSRF secret), names with DSN (SENTRY_DSN) or
    PARLOUR_PROXY (the proxy's X-Parlour-Proxy header, which
    core.proxy.ProxyHeaders already removes), and the password of every URL
    (REDIS_URL, CELERY_BROKER_URL and the channel layer's address hold
    Redis's)."""

    hidden_settings = re.compile(
        "API|AUTH|TOKEN|KEY|SECRET|PASS|SIGNATURE|HTTP_COOKIE|^CSRF_COOKIE$|DSN|PARLOUR_PROXY", flags=re.I)
    _URL_PASSWORD = re.compile(r"(://[^:/@\s]*:)[^@/\s]+@")

    def cleanse_setting(self, key, value):
        cleansed = super().cleanse_setting(key, value)
        if isinstance(cleansed, str) and "://" in cleansed:
            cleansed = self._URL_PASSWORD.sub(rf"\g<1>{self.cleansed_substitute}@", cleansed)
        return cleansed


class AdminMailHandler(AdminEmailHandler):
    """Django's ``mail_admins`` log handler (config/settings.py LOGGING), with
    two changes:

    - it never raises into the code that logged: a mail server that refuses
      or is down is reported by logging's own ``handleError`` (on stderr);
    - one mail per kind of error (logger, message, exception type) per
      ``PARLOUR_ERROR_MAIL_REPEAT_SECONDS`` per process: a database outage
      fails every request the same way, and would otherwise send one mail
      each. The log lines still name every one.

    The mail's first line is the log line, with its request id."""

    #: Kinds remembered at most; past it the memory starts again.
    MEMORY = 1000

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._last_sent: dict[tuple, float] = {}
        self._memory_lock = threading.Lock()

    def _first_in_a_while(self, record: logging.LogRecord) -> bool:
        kind = (record.name, record.getMessage()[:200], record.exc_info[0] if record.exc_info else None)
        now = time.monotonic()
        with self._memory_lock:
            last = self._last_sent.get(kind)
            if last is not None and now - last < settings.PARLOUR_ERROR_MAIL_REPEAT_SECONDS:
                return False
            if len(self._last_sent) >= self.MEMORY:
                self._last_sent.clear()
            self._last_sent[kind] = now
        return True

    def emit(self, record: logging.LogRecord) -> None:
        if not settings.ADMINS or not self._first_in_a_while(record):
            return
        try:
            super().emit(record)
        except Exception:  # noqa: BLE001 - a lost mail must not become a second error
            self.handleError(record)


def _tag_request_id(event, hint):
    """sentry-sdk's ``before_send``: tags the event with the request id of
    the request or socket it came from (none outside one)."""
    current = request_ids.current()
    if current != request_ids.NONE:
        event.setdefault("tags", {})["request_id"] = current
    return event


def init_sentry(dsn: str, *, environment: str, traces_sample_rate: float) -> None:
    """Start sentry-sdk with its Django, Celery and logging integrations
    (config/settings.py calls it when SENTRY_DSN is set; the WebSockets get
    its ASGI middleware in config/asgi.py). No personal data is sent
    (``send_default_pii=False``: no cookies, user names, addresses or
    request bodies), and each event carries the ``request_id`` tag. Raises
    ImproperlyConfigured for a DSN sentry-sdk cannot read."""
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration
    from sentry_sdk.utils import BadDsn

    try:
        sentry_sdk.init(
            dsn=dsn,
            environment=environment,
            send_default_pii=False,
            traces_sample_rate=traces_sample_rate,
            before_send=_tag_request_id,
            integrations=[DjangoIntegration(), CeleryIntegration()],
        )
    except BadDsn as e:
        raise ImproperlyConfigured(
            f"SENTRY_DSN is not a DSN sentry-sdk can read ({e}); e.g. "
            "https://<key>@<host>/<project id>, or leave it unset for no error tracker.") from None
