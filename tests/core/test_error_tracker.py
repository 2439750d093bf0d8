"""The optional error tracker (core/reporting.py ``init_sentry``): off unless
SENTRY_DSN is set; with it, a server error reaches the tracker's HTTP endpoint
(a real one: a local HTTP server in the test) over sentry-sdk's own
transport, tagged with the request id, without personal data."""

import gzip
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import sentry_sdk
from django.conf import settings
from sentry_sdk.integrations.asgi import SentryAsgiMiddleware

from config import asgi

# Runs in a process of its own, so that sentry-sdk's patches stay out of the suite.
SCRIPT = """
import asyncio
import django
django.setup()
import sentry_sdk
from channels.testing import HttpCommunicator
from django.test.utils import override_settings
from sentry_sdk.integrations.asgi import SentryAsgiMiddleware
from config import asgi

async def main():
    with override_settings(ROOT_URLCONF="tests.core.error_urls"):
        comm = HttpCommunicator(asgi.application, "GET", "/test-errors/boom/", headers=[
            (b"host", b"testserver"), (b"cookie", b"csrftoken=a-token-not-for-the-tracker")])
        response = await comm.get_response(timeout=10)
    print(response["status"], dict(response["headers"])[b"x-request-id"].decode(),
          isinstance(asgi.websocket_app, SentryAsgiMiddleware))

asyncio.run(main())
sentry_sdk.flush(timeout=10)
"""


class Tracker(ThreadingHTTPServer):
    """A local HTTP endpoint that keeps the envelopes sentry-sdk posts."""

    def __init__(self):
        self.envelopes: list[tuple[str, bytes]] = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(handler):  # noqa: N805 - the server is self
                body = handler.rfile.read(int(handler.headers["Content-Length"]))
                if handler.headers.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                self.envelopes.append((handler.path, body))
                handler.send_response(200)
                handler.end_headers()

            def log_message(handler, *args):  # noqa: N805
                pass

        super().__init__(("127.0.0.1", 0), Handler)

    def events(self) -> list[dict]:
        """The error events of every envelope received (JSON items of type "event")."""
        found = []
        for _path, body in self.envelopes:
            lines = body.split(b"\n")
            for header, payload in zip(lines[1::2], lines[2::2], strict=False):
                if json.loads(header).get("type") == "event":
                    found.append(json.loads(payload))
        return found


def test_with_a_dsn_a_server_error_reaches_the_tracker_tagged_with_its_request_id():
    tracker = Tracker()
    thread = threading.Thread(target=tracker.serve_forever, daemon=True)
    thread.start()
    try:
        env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.test_settings",
                   SENTRY_DSN=f"http://publickey@127.0.0.1:{tracker.server_port}/42")
        result = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True,
                                timeout=120)
    finally:
        tracker.shutdown()
        tracker.server_close()
    assert result.returncode == 0, result.stderr
    status, request_id, sockets_wrapped = result.stdout.split()
    assert (status, sockets_wrapped) == ("500", "True")
    assert all(path == "/api/42/envelope/" for path, _ in tracker.envelopes)
    [event] = [e for e in tracker.events() if e.get("exception")]
    assert event["exception"]["values"][-1]["type"] == "Boom"
    assert event["tags"]["request_id"] == request_id
    assert event["request"]["url"].endswith("/test-errors/boom/")
    assert "a-token-not-for-the-tracker" not in json.dumps(event)  # send_default_pii=False
    assert "user" not in event or "ip_address" not in event["user"]


def test_without_a_dsn_there_is_no_tracker():
    assert settings.SENTRY_DSN == ""
    assert not sentry_sdk.get_client().is_active()
    assert not isinstance(asgi.websocket_app, SentryAsgiMiddleware)


def test_a_dsn_sentry_cannot_read_stops_the_start_with_a_message():
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", DEBUG="1", SENTRY_DSN="not-a-dsn")
    result = subprocess.run([sys.executable, "-c", "import django; django.setup()"], env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "SENTRY_DSN is not a DSN sentry-sdk can read" in result.stderr
