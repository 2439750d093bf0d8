"""Errors that reach someone (core/reporting.py): with DEBUG off, a server
error is mailed to ADMINS over real SMTP (aiosmtpd, tests/mail_server.py), with
the request id and without secrets; ADMINS and SERVER_EMAIL are read from the
environment and a malformed entry is refused by name."""

import logging
import os
import subprocess
import sys

import pytest
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator
from django.conf import settings
from django.core import mail
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.test import Client, override_settings

from config.asgi import application
from config.celery import app as celery_app
from config.celery import mail_errors_from_workers
from core.reporting import AdminMailHandler, parse_addresses
from tests.factories import make_user
from tests.mail_server import MailServer

SECRET = "the-proxy-secret-the-mail-must-not-hold"
NGINX_ID = "feedfacefeedfacefeedfacefeedface"
REDIS_PASSWORD = "redis-password-in-a-url"
ADMINS = ["Ops <ops@example.org>", "dev@example.org"]


@pytest.fixture
def smtp():
    with MailServer() as server, override_settings(
            ADMINS=ADMINS, SERVER_EMAIL="Parlour errors <errors@example.org>", MAILERS=server.mailers):
        yield server


def body_of(message) -> str:
    return message.get_body(("plain",)).get_content().replace("\r\n", "\n")


@sync_to_async
def signed_in_cookies() -> tuple[str, str]:
    client = Client()
    client.force_login(make_user())
    connection.close()  # back to the pool: a connection left open outlives the test database
    return client.cookies[settings.SESSION_COOKIE_NAME].value, "csrf" + "t0ken" * 8


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@override_settings(ROOT_URLCONF="tests.core.error_urls", TRUSTED_PROXY_COUNT=1, TRUSTED_PROXY_SECRET=SECRET,
                   REDIS_URL=f"redis://:{REDIS_PASSWORD}@redis.internal:6379/0")
async def test_a_server_error_reaches_the_admins_by_smtp_with_its_request_id_and_no_secrets(smtp):
    session, csrf = await signed_in_cookies()
    comm = HttpCommunicator(application, "GET", "/test-errors/boom/", headers=[
        (b"host", b"testserver"),
        (b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}; csrftoken={csrf}".encode()),
        (b"x-csrftoken", csrf.encode()),
        (b"x-parlour-proxy", SECRET.encode()), (b"x-request-id", NGINX_ID.encode()),
        (b"x-forwarded-for", b"203.0.113.7")])
    response = await comm.get_response(timeout=10)
    assert response["status"] == 500
    # Sent before the response: the SMTP server has it by now.
    [message] = smtp.messages
    assert smtp.envelopes[0].rcpt_tos == ["ops@example.org", "dev@example.org"]
    assert message["From"] == "Parlour errors <errors@example.org>"
    assert message["Subject"].strip().startswith(
        "[Parlour] ERROR (EXTERNAL IP): Internal Server Error: /test-errors/boom/")
    body = body_of(message)
    assert f"[{NGINX_ID}]" in body.splitlines()[0]  # the log line, with the request id
    assert "Boom at /test-errors/boom/\na test error the views did not handle" in body
    assert "HTTP_X_REQUEST_ID" in body and "203.0.113.7" in body
    raw = smtp.envelopes[0].content.decode("utf-8", "replace")
    for secret in (SECRET, session, csrf, REDIS_PASSWORD, settings.SECRET_KEY):
        assert secret not in body and secret not in raw, secret
    assert "HTTP_X_PARLOUR_PROXY" not in body  # removed before Django saw the request


def test_a_mail_server_that_is_down_does_not_turn_the_error_into_another():
    """A mail that cannot be sent is reported by logging (stderr), not raised
    into the code that logged the error."""
    with MailServer() as server:
        mailers = server.mailers
    with override_settings(ADMINS=ADMINS, MAILERS=mailers):  # the server is gone now
        handler = AdminMailHandler()
        record = logging.LogRecord("tests.errors", logging.ERROR, __file__, 1, "no mail for this", (), None)
        record.request_id = "-"
        handler.handle(record)  # returns; logging.raiseExceptions prints the failure


@override_settings(ADMINS=ADMINS, PARLOUR_ERROR_MAIL_REPEAT_SECONDS=3600)
def test_one_mail_per_kind_of_error_however_often_it_happens():
    handler = AdminMailHandler()

    def error(message):
        record = logging.LogRecord("tests.errors", logging.ERROR, __file__, 1, message, (), None)
        record.request_id = "-"
        handler.handle(record)

    for _ in range(5):
        error("Internal Server Error: /the-same-page/")
    error("Internal Server Error: /another-page/")
    assert [m.subject for m in mail.outbox] == [
        "[Parlour] ERROR: Internal Server Error: /the-same-page/",
        "[Parlour] ERROR: Internal Server Error: /another-page/"]


@pytest.mark.parametrize("logger", [
    "uvicorn.error",  # uvicorn's "Exception in ASGI application": a socket's consumer raised
    "daphne.server",  # daphne's "Exception inside application"
    "core.sockets.consumer",  # a group frame's handler failed
    "celery.app.trace",  # a task failed
])
def test_the_errors_of_sockets_and_tasks_are_mailed_once(smtp, logger, monkeypatch):
    # As uvicorn's own logging configuration (uvicorn.config.LOGGING_CONFIG) leaves it:
    # nothing under "uvicorn" reaches the root logger.
    monkeypatch.setattr(logging.getLogger("uvicorn"), "propagate", False)
    try:
        raise RuntimeError("in a socket")
    except RuntimeError:
        logging.getLogger(logger).exception("Exception in ASGI application")
    assert [m["Subject"].strip() for m in smtp.messages] == ["[Parlour] ERROR: Exception in ASGI application"]
    assert "RuntimeError\nin a socket" in body_of(smtp.messages[0])


@celery_app.task(name="tests.core.test_error_mail.failing_task")
def failing_task():
    raise RuntimeError("a task that failed")


def test_a_failed_celery_task_reaches_the_admins_from_a_workers_logger(smtp):
    """Celery's worker replaces the root logger's handlers; its
    after_setup_logger hook (config/celery.py) adds the mail back, and a
    failed task's line (celery.app.trace) is mailed."""
    worker_root = logging.Logger("a-workers-root")
    mail_errors_from_workers(logger=worker_root)
    mail_errors_from_workers(logger=worker_root)  # once only
    assert sum(isinstance(h, AdminMailHandler) for h in worker_root.handlers) == 1
    worker_root.error("a line of a worker", exc_info=(RuntimeError, RuntimeError("in a worker"), None))
    failing_task.apply()  # the trace logs the failure at ERROR; here through the root logger
    subjects = [m["Subject"].strip() for m in smtp.messages]
    assert subjects[0] == "[Parlour] ERROR: a line of a worker"
    assert any("failing_task" in s and "raised unexpected" in s for s in subjects[1:]), subjects


@pytest.mark.parametrize("value, admins", [
    ("", []),
    ("ops@example.org", ["ops@example.org"]),
    ('Ops <ops@example.org>, "Doe, Jane" <jane@example.org>,dev@example.org',
     ["Ops <ops@example.org>", '"Doe, Jane" <jane@example.org>', "dev@example.org"]),
])
def test_admins_are_comma_separated_addresses_with_optional_names(value, admins):
    assert parse_addresses("ADMINS", value) == admins


@pytest.mark.parametrize("value, named", [
    ("Ops <ops@example.org>, not an address", "'not an address'"),
    ("ops@example.org,,dev@example.org", "''"),
    ("Ops <ops@>", "'Ops <ops@>'"),
])
def test_a_malformed_admins_entry_is_refused_by_name(value, named):
    with pytest.raises(ImproperlyConfigured, match=f"ADMINS: {named} is not an e-mail address"):
        parse_addresses("ADMINS", value)


def test_the_site_does_not_start_with_a_malformed_admins():
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", DEBUG="1", ADMINS="ops@example.org, ops")
    result = subprocess.run([sys.executable, "-c", "import django; django.setup()"], env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "ADMINS: 'ops' is not an e-mail address" in result.stderr
