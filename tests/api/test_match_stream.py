"""``GET /api/match/<id>/stream`` (docs/api.md "Streams"): the seat's view
first, then each change, versioned; chat as data; the end line; a ban and a
revocation close it; one stream per match per token, four in all.

Driven through Django's AsyncClient (the ASGI handler, the real Redis
channel layer); the test's data is committed (the stream reads on threads
of its own)."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from accounts import tokens
from games import actions, chat, push
from games.engine import get_rules
from games.models import Match
from moderation import actions as moderation
from tests.api.conftest import Lines, bearer, bot_with_token
from tests.factories import ludo_state, make_match, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

def _setup(is_public=True, watcher=False):
    bot, token, text = bot_with_token()
    person = make_user()
    match = make_match("ludo", ("human", "human"), users=[person, bot], is_public=is_public,
                       state=ludo_state(phase="move", die=6, turn=0))
    return bot, token, text, person, match


async def _open(text, match_id):
    response = await AsyncClient().get(f"/api/match/{match_id}/stream", headers=bearer(text))
    return response


def _legal(match_id):
    match = Match.objects.get(public_id=match_id)
    rules = get_rules(match.kind)
    return match.version, [str(m) for m in rules.legal_moves(rules.load(match.state))]


async def test_the_stream_sends_the_seat_s_state_then_each_change_then_the_end(monkeypatch):
    from tests.hidden import silence_tasks

    silence_tasks(monkeypatch)
    bot, token, text, person, match = await sync_to_async(_setup)()
    response = await _open(text, match.public_id)
    assert response.status_code == 200 and response["Content-Type"] == "application/x-ndjson"
    lines = Lines(response)
    first = await lines.next()
    assert first["type"] == "state" and first["seat"] == 1 and first["version"] == match.version
    assert first["legal_moves"] == [] and first["to_move"] == 0 and first["status"] == "active"
    assert [s["username"] for s in first["seats"]] == [person.username, bot.username]
    assert first["seats"][1]["bot"] is True and first["seats"][0]["computer"] is False
    version, legal = await sync_to_async(_legal)(match.public_id)
    await sync_to_async(actions.play_move)(match.public_id, person, legal[0], version)
    second = await lines.next()
    assert second["type"] == "state" and second["version"] > first["version"]
    # Chat reaches the stream as data, with its preset id and sender.
    preset = next(iter(chat.PRESETS))
    await push.send_chat(match.public_id, "<p>html</p>", person.pk, preset, person.username)
    said = await lines.next()
    assert said == {"type": "chat", "from": person.username, "id": preset, "text": chat.PRESETS[preset]}
    # The match ends: the last state, the end line, and the stream closes.
    await sync_to_async(actions.leave_match)(match.public_id, person)
    last = await lines.next()
    assert last["type"] == "state" and last["status"] == "finished"
    end = await lines.next()
    assert end["type"] == "end" and end["status"] == "finished" and end["result"]["ranks"][1] == 1
    assert await lines.ended()


async def test_a_seat_to_move_gets_its_legal_moves_in_notation(monkeypatch):
    from tests.hidden import silence_tasks

    silence_tasks(monkeypatch)
    bot, token, text, person, match = await sync_to_async(_setup)()
    await sync_to_async(Match.objects.filter(pk=match.pk).update)(
        state=ludo_state(phase="move", die=6, turn=1), seat_to_move=1)
    lines = Lines(await _open(text, match.public_id))
    first = await lines.next()
    _version, legal = await sync_to_async(_legal)(match.public_id)
    assert first["to_move"] == 1 and first["legal_moves"] == legal and legal
    await lines.close()


async def test_a_private_match_of_others_is_not_found_and_a_public_one_is_watched():
    _bot, _token, _text, _person, private = await sync_to_async(_setup)(is_public=False)
    _other, _token2, other_text = await sync_to_async(bot_with_token)()
    response = await _open(other_text, private.public_id)
    assert response.status_code == 404 and json.loads(response.content)["error"]["code"] == "not_found"
    _bot, _token, _text, _person, public = await sync_to_async(_setup)()
    lines = Lines(await _open(other_text, public.public_id))
    first = await lines.next()
    assert first["seat"] is None and first["legal_moves"] == []
    await lines.close()


async def test_a_revocation_and_a_ban_close_open_streams():
    bot, token, text, person, match = await sync_to_async(_setup)()
    lines = Lines(await _open(text, match.public_id))
    await lines.next()
    await sync_to_async(tokens.revoke)(bot, token.pk)
    assert await lines.ended()
    # A ban closes every stream of the account, a match it only watches too
    # (its own matches end as the ban makes it leave them).
    _row, text2 = await sync_to_async(tokens.make_token)(bot, "again", ["read"])
    others = await sync_to_async(make_match)("ludo", ("human", "human"))
    lines = Lines(await _open(text2, others.public_id))
    assert (await lines.next())["seat"] is None
    admin = await sync_to_async(make_user)()
    await sync_to_async(moderation.ban_user)(admin, bot, None, "a test ban")
    assert await lines.ended()


async def test_one_stream_per_match_per_token_and_four_in_all():
    bot, token, text, person, match = await sync_to_async(_setup)()
    first = Lines(await _open(text, match.public_id))
    await first.next()
    again = await _open(text, match.public_id)
    assert again.status_code == 429 and int(again["Retry-After"]) >= 1
    assert json.loads(again.content)["error"]["code"] == "rate_limited"
    others = []
    for _ in range(3):
        other = await sync_to_async(make_match)("ludo", ("human", "human"), users=[bot, person])
        lines = Lines(await _open(text, other.public_id))
        await lines.next()
        others.append(lines)
    fifth = await sync_to_async(make_match)("ludo", ("human", "human"), users=[bot, person])
    refused = await _open(text, fifth.public_id)
    assert refused.status_code == 429
    await first.close()  # closing a stream frees its slot at once
    again = Lines(await _open(text, match.public_id))
    assert (await again.next())["type"] == "state"
    for lines in [again, *others]:
        await lines.close()


async def test_a_silent_stream_sends_keep_alive_lines(monkeypatch):
    from api import streams

    monkeypatch.setattr(streams, "KEEPALIVE_SECONDS", 0.01)
    bot, token, text, person, match = await sync_to_async(_setup)()
    response = await _open(text, match.public_id)
    lines = Lines(response)
    await lines.next()
    chunk = await asyncio.wait_for(anext(lines.chunks), 10)  # nothing happens: a keep-alive comes
    assert chunk == b"\n"
    await lines.close()
