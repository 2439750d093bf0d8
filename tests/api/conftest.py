"""Shared by the API's tests: bot accounts with tokens, limits that start
empty, and a reader of NDJSON streams."""

import asyncio
import json

import pytest
import redis
from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import connections

from accounts import tokens
from api import limits
from core import ratelimits
from tests.factories import make_user


@pytest.fixture(autouse=True)
def _empty_limits(request, redis_server):
    """Every test starts with no request counted and no stream slot held."""
    ratelimits.reset()
    client = redis.Redis.from_url(settings.REDIS_URL)
    keys = list(client.scan_iter(f"{limits.STREAM_SLOT_PREFIX}:*"))
    if keys:
        client.delete(*keys)
    client.close()
    yield
    if "transactional_db" in request.fixturenames:
        # The async test client's sync work ran on asgiref's one thread,
        # whose connection the test client keeps open (request_finished does
        # not close it in tests): close it, so none is left when the test
        # database is dropped.
        SyncToAsync.single_thread_executor.submit(connections.close_all).result()


def bot_with_token(scopes=("read", "play"), username=None):
    """A bot account and the text of its token with ``scopes``: (user, token row, text)."""
    user = tokens.make_bot(make_user(username))
    token, text = tokens.make_token(user, "test bot", list(scopes))
    return user, token, text


def bearer(text: str) -> dict:
    return {"Authorization": f"Bearer {text}"}


WAIT = 10  # seconds: a bound on waiting for a line, never a pause


class Lines:
    """Reads a stream's NDJSON lines one at a time (skipping keep-alives)."""

    def __init__(self, response):
        self.response, self.buffer = response, ""
        self.chunks = aiter(response.streaming_content)

    async def next(self):
        while "\n" not in self.buffer.lstrip("\n") or not self.buffer.strip():
            chunk = await asyncio.wait_for(anext(self.chunks), WAIT)
            self.buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
            self.buffer = self.buffer.lstrip("\n")
        text, self.buffer = self.buffer.split("\n", 1)
        return json.loads(text)

    async def ended(self) -> bool:
        try:
            while True:
                chunk = await asyncio.wait_for(anext(self.chunks), WAIT)
                assert not (chunk.strip() if isinstance(chunk, bytes) else chunk.strip()), chunk
        except StopAsyncIteration:
            return True

    async def close(self):
        """Hang up, as a client does: under daphne the handler cancels the
        stream; here the test client's wrapper would not close it, so the
        stream's own generator is closed."""
        await self.chunks.aclose()
        await self.response._iterator.aclose()
