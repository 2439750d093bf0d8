"""A token never appears in a log line or a URL (docs/api.md "Tokens"): it is
read from the Authorization header only, and no request, accepted or
refused, writes it to the logs."""

import logging

import pytest

from accounts import tokens
from tests.api.conftest import bearer, bot_with_token
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db


def test_no_log_line_holds_the_token(client, caplog):
    bot, token, text = bot_with_token()
    match = make_match("ludo", ("human", "human"), users=[bot, make_user()])
    caplog.set_level(logging.DEBUG)
    client.get("/api/account", headers=bearer(text))
    client.post(f"/api/match/{match.public_id}/move", data={"move": "fly", "version": 0},
                content_type="application/json", headers=bearer(text))
    client.post(f"/api/match/{match.public_id}/move", data="{not json", content_type="application/json",
                headers=bearer(text))
    client.get("/api/match/nosuch/export", headers=bearer(text))
    tokens.revoke(bot, token.pk)
    client.get("/api/account", headers=bearer(text))  # revoked: 401
    assert caplog.records, "the requests were logged"
    secret = text.removeprefix(tokens.TOKEN_PREFIX)
    for record in caplog.records:
        assert secret not in record.getMessage() and secret not in repr(record.__dict__)


def test_a_token_in_the_url_is_never_read(client):
    _bot, _token, text = bot_with_token()
    for query in (f"?token={text}", f"?access_token={text}", f"?authorization=Bearer%20{text}"):
        answer = client.get(f"/api/account{query}")
        assert (answer.status_code, answer.json()["error"]["code"]) == (401, "unauthorized")
