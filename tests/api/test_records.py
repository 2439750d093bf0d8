"""Ended matches as data: ``GET /api/match/<id>/export`` (the export page's
access rules) and ``GET /api/account/matches`` (NDJSON, newest first)."""

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from accounts import tokens
from games import actions
from tests.api.conftest import bearer, bot_with_token
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db


def test_the_export_of_an_ended_match_and_its_refusals(client):
    bot, _token, text = bot_with_token()
    person = make_user()
    match = make_match("ludo", ("human", "human"), users=[bot, person])
    live = client.get(f"/api/match/{match.public_id}/export", headers=bearer(text))
    assert (live.status_code, live.json()["error"]["code"]) == (404, "not_found")
    actions.leave_match(match.public_id, person)
    ended = client.get(f"/api/match/{match.public_id}/export", headers=bearer(text))
    assert ended.status_code == 200
    assert ended.json() == client.get(f"/m/{match.public_id}/export.json").json()
    private = make_match("ludo", ("human", "human"), is_public=False)
    actions.leave_match(private.public_id, private.seats.first().user)
    hidden = client.get(f"/api/match/{private.public_id}/export", headers=bearer(text))
    assert hidden.status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_account_s_ended_matches_stream_newest_first(monkeypatch):
    from api import views_records

    monkeypatch.setattr(views_records, "BATCH", 2)  # several batches
    bot, _token, text = await sync_to_async(bot_with_token)()

    def play():
        ids = []
        for _ in range(5):
            match = make_match("ludo", ("human", "human"), users=[bot, make_user()])
            actions.leave_match(match.public_id, bot)
            ids.append(match.public_id)
        make_match("ludo", ("human", "human"), users=[bot, make_user()])  # live: not listed
        _row, reader = tokens.make_token(bot, "reader", ["read"])
        return ids, reader

    ids, reader = await sync_to_async(play)()
    response = await AsyncClient().get("/api/account/matches", headers=bearer(reader))
    assert response["Content-Type"] == "application/x-ndjson"
    body = b"".join([chunk async for chunk in response.streaming_content]).decode()
    listed = [json.loads(text) for text in body.splitlines()]
    assert [m["id"] for m in listed] == list(reversed(ids))
