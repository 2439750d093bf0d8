"""A handshake's sign-in lookup that does not answer in time (the database
away: lookups queue on Channels' one database thread) is told to try again
with 4013 before daphne's 5 s handshake timeout would drop it unanswered,
which a proxy such as nginx counts against the web process
(accounts/sockets.py, "Signing in")."""

import asyncio
import time

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from accounts import sockets
from accounts.close_codes import CLOSE_TRY_AGAIN
from config.asgi import application
from tests.factories import ludo_state, make_match

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_sign_in_lookup_that_hangs_is_answered_with_4013_in_time(monkeypatch):
    from django.contrib.sessions.backends.db import SessionStore

    monkeypatch.setattr(sockets, "SIGN_IN_SECONDS", 0.5)
    real = SessionStore._get_session_from_db

    def slow(self):
        time.sleep(3)  # the pool waiting for a database that is away
        return real(self)

    match = make_match(seats=("human", "human"), state=ludo_state())
    client = Client()
    client.force_login(match.seats.get(index=0).user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    monkeypatch.setattr(SessionStore, "_get_session_from_db", slow)

    async def handshake():
        comm = WebsocketCommunicator(application, f"/ws/match/{match.public_id}/", headers=[
            (b"host", b"localhost:8300"), (b"origin", b"http://localhost:8300"),
            (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())])
        started = time.monotonic()
        connected, _ = await comm.connect(timeout=5)
        answer = await comm.receive_output(timeout=5)
        waited = time.monotonic() - started
        await comm.disconnect()
        await asyncio.sleep(2.7)  # let the slow lookup finish before the test's database goes
        return connected, answer, waited

    connected, answer, waited = asyncio.run(handshake())
    assert connected
    assert answer == {"type": "websocket.close", "code": CLOSE_TRY_AGAIN}
    assert waited < 2.5  # answered at the deadline, not when the lookup ended
