"""A frame sent to a client that has already gone (it left the page while its
snapshot was being read) is dropped: daphne raises autobahn's Disconnected from
the send, which before ended the consumer with "Exception inside application"
in the error log (seen in a browser run: a page left during its socket's
handshake)."""

import asyncio

import pytest
from autobahn.exception import Disconnected

from core.sockets.consumer import SocketConsumer as ParlourConsumer


def test_a_frame_to_a_client_that_has_gone_is_dropped_not_raised():
    consumer = ParlourConsumer()
    consumer.scope = {"type": "websocket", "path": "/ws/match/x/"}
    sent = []

    async def gone(message):
        sent.append(message)
        raise Disconnected("Attempt to send on a closed protocol")

    consumer.base_send = gone
    asyncio.run(consumer.send(text_data="<div></div>"))
    assert sent == [{"type": "websocket.send", "text": "<div></div>"}]


def test_any_other_send_failure_still_raises():
    consumer = ParlourConsumer()
    consumer.scope = {"type": "websocket", "path": "/ws/match/x/"}

    async def broken(message):
        raise RuntimeError("something else")

    consumer.base_send = broken
    with pytest.raises(RuntimeError):
        asyncio.run(consumer.send(text_data="x"))
