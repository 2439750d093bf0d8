"""Request ids (docs/operations.md, "Errors that reach someone"): every HTTP
request and every WebSocket connection gets one, so that a player can quote
the id the error page shows and the operator finds every log line of it.

- The id is the trusted proxy's ``X-Request-ID`` when it sent a valid one
  (deploy/nginx.conf.template passes nginx's ``$request_id``, 32 hex digits;
  ``core.proxy.ProxyHeaders`` drops the header from every request that lacks
  the proxy's secret, so a client cannot choose its id), else a new
  ``uuid4().hex``. A value that is not 8 to 64 letters, digits, ``.``, ``_``,
  ``:`` or ``-`` is not used: the request gets a new id.
- ``RequestIds``, an ASGI middleware inside ``ProxyHeaders``, sets it once per
  request and once per socket, in the context variable ``request_id``, and
  sends it back in an HTTP response's ``X-Request-ID`` header. Nothing is done
  per frame: a socket's handlers, ``database_sync_to_async`` calls and the
  action threads (``games.consumers._play_in_pool``) run in copies of the
  socket's context, so they see its id as it is.
- ``RequestIdFilter`` (on the log handlers, config/settings.py LOGGING) puts
  the id on every log record as ``request_id`` ("-" outside a request or a
  socket). A record that already carries one (``extra={"request_id": ...}``)
  keeps it: a socket's group frames are written by tasks the channel layer
  starts, outside the socket's context (core/sockets/consumer.py).
- A task that serves a whole process (the channel layer's reader, a per-loop
  heartbeat) is started by whichever socket came first, in a copy of that
  socket's context: it calls ``detach()`` first, so its lines carry no
  socket's id.
"""

from __future__ import annotations

import logging
import re
import uuid
from contextvars import ContextVar

#: The header the trusted proxy names its id in, and the response carries it in.
HEADER = b"x-request-id"
#: What a request id from the proxy may be (nginx's $request_id is 32 hex digits).
VALID = re.compile(rb"[A-Za-z0-9._:-]{8,64}")
#: The id of the request or socket being handled; "-" outside one.
NONE = "-"
request_id: ContextVar[str] = ContextVar("parlour_request_id", default=NONE)


def current() -> str:
    """The id of the request or socket this code runs for ("-" outside one)."""
    return request_id.get()


def detach() -> None:
    """Run the rest of this task under no request's id (module docstring)."""
    request_id.set(NONE)


def from_headers(headers) -> str:
    """The id for a request with ASGI ``headers`` (``[(name, value), ...]``
    of bytes, names in lower case, as ``ProxyHeaders`` passed them on): its
    one valid X-Request-ID line, else a new uuid4 in hex (32 characters)."""
    sent = [value for key, value in headers if key == HEADER]
    if len(sent) == 1 and VALID.fullmatch(sent[0]):
        return sent[0].decode("ascii")
    return uuid.uuid4().hex


class RequestIdFilter(logging.Filter):
    """Puts ``request_id`` on every record that passes (a handler's filter,
    so records propagated from any logger get it); never drops one."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id.get()
        return True


class RequestIds:
    """ASGI middleware (config/asgi.py, inside ``core.proxy.ProxyHeaders``):
    on ``http`` and ``websocket`` scopes, sets ``request_id`` for the whole
    request or connection, adds it to the scope as ``"request_id"``, and to
    an HTTP response's headers as ``X-Request-ID``. Other scopes pass
    unchanged."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        rid = from_headers(scope.get("headers", ()))
        scope = dict(scope, request_id=rid)
        if kind == "http":
            header = (HEADER, rid.encode("ascii"))

            async def send_with_id(message):
                if message["type"] == "http.response.start":
                    message = dict(message, headers=[*message.get("headers", ()), header])
                await send(message)
        else:
            send_with_id = send
        token = request_id.set(rid)
        try:
            return await self.app(scope, receive, send_with_id)
        finally:
            request_id.reset(token)
