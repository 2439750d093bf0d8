"""Shared by the API's tests: bot accounts with tokens, and limits that start empty."""

import pytest
import redis
from django.conf import settings

from accounts import tokens
from api import limits
from core import ratelimits
from tests.factories import make_user


@pytest.fixture(autouse=True)
def _empty_limits(redis_server):
    """Every test starts with no request counted and no stream slot held."""
    ratelimits.reset()
    client = redis.Redis.from_url(settings.REDIS_URL)
    keys = list(client.scan_iter(f"{limits.STREAM_SLOT_PREFIX}:*"))
    if keys:
        client.delete(*keys)
    client.close()
    yield


def bot_with_token(scopes=("read", "play"), username=None):
    """A bot account and the text of its token with ``scopes``: (user, token row, text)."""
    user = tokens.make_bot(make_user(username))
    token, text = tokens.make_token(user, "test bot", list(scopes))
    return user, token, text


def bearer(text: str) -> dict:
    return {"Authorization": f"Bearer {text}"}
