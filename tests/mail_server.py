"""A real SMTP server for tests (aiosmtpd on a free loopback port), and the
MAILERS setting that sends the site's mail to it: ``with MailServer() as
server: ... server.messages`` (each an ``email.message.EmailMessage``, in the
order they arrived)."""

from __future__ import annotations

import email
import email.policy
import threading

from tests.services import free_port


class MailServer:
    """An aiosmtpd server in a thread of its own, keeping every message."""

    def __init__(self):
        from aiosmtpd.controller import Controller

        self.messages: list[email.message.EmailMessage] = []
        self.envelopes = []
        self._lock = threading.Lock()
        self.port = free_port()
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_DATA(self, server, session, envelope):  # aiosmtpd's handler hook
        with self._lock:
            self.envelopes.append(envelope)
            self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        return "250 Message accepted for delivery"

    @property
    def mailers(self) -> dict:
        """A MAILERS setting whose default mailer sends here over SMTP."""
        return {"default": {"BACKEND": "django.core.mail.backends.smtp.EmailBackend",
                            "OPTIONS": {"host": "127.0.0.1", "port": self.port, "timeout": 10}}}

    def __enter__(self) -> MailServer:
        self._controller.start()
        return self

    def __exit__(self, *exc) -> None:
        self._controller.stop()
