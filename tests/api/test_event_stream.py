"""``GET /api/stream/events`` (docs/api.md): the account's live matches and
open incoming challenges first, then challenges made and gone, rematch
offers, matches starting and ending, as they are committed."""

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from games import actions
from matchmaking import together
from matchmaking.challenges import actions as challenges
from matchmaking.rematch import actions as rematches
from tests.api.conftest import Lines, bearer, bot_with_token
from tests.factories import make_match, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _no_tasks(monkeypatch):
    from tests.hidden import silence_tasks

    silence_tasks(monkeypatch)
    monkeypatch.setattr(together, "send_task", lambda *a, **k: None)


async def test_live_matches_and_open_challenges_come_first_then_events_as_they_happen():
    def setup():
        bot, token, text = bot_with_token()
        ann, bea = make_user(), make_user()
        live = make_match("ludo", ("human", "human"), users=[ann, bot])
        made = challenges.do_challenge(ann, bot.username, "ludo", 60)
        return bot, text, ann, bea, live, made

    bot, text, ann, bea, live, made = await sync_to_async(setup)()
    lines = Lines(await AsyncClient().get("/api/stream/events", headers=bearer(text)))
    assert await lines.next() == {"type": "match_start", "match": {"id": live.public_id, "game": "ludo",
                                                                   "seat": 1}}
    first = await lines.next()
    assert first["type"] == "challenge" and first["challenge"]["id"] == made.pk
    assert first["challenge"]["from"] == ann.username and first["challenge"]["turn_seconds"] == 60

    # A new challenge, then its withdrawal.
    other = await sync_to_async(challenges.do_challenge)(bea, bot.username, "ludo", 60)
    assert (await lines.next())["challenge"]["id"] == other.pk
    await sync_to_async(challenges.do_cancel)(other.pk, bea)
    gone = await lines.next()
    assert gone == {"type": "challenge_gone", "challenge": {"id": other.pk}, "reason": "cancelled"}

    # Accepting starts a match: the challenge is gone, the match starts.
    accepted = await sync_to_async(challenges.do_answer)(made.pk, bot, True)
    got = [await lines.next(), await lines.next()]
    kinds = sorted(line["type"] for line in got)
    assert kinds == ["challenge_gone", "match_start"]
    start = next(line for line in got if line["type"] == "match_start")
    assert start["match"]["id"] == (await sync_to_async(lambda: accepted.match.public_id)())

    # The live match ends: its finish, with the bot's rank; then the person offers a rematch.
    await sync_to_async(actions.leave_match)(live.public_id, ann)
    finish = await lines.next()
    assert finish["type"] == "match_finish" and finish["match"]["id"] == live.public_id
    assert finish["match"]["status"] == "finished" and finish["match"]["result"]["rank"] == 1
    await sync_to_async(rematches.do_offer)(live.public_id, ann)
    assert await lines.next() == {"type": "rematch", "match": live.public_id, "from": ann.username}
    await lines.close()


async def test_the_events_of_others_do_not_reach_the_stream():
    def setup():
        bot, token, text = bot_with_token()
        ann, bea = make_user(), make_user()
        return bot, text, ann, bea

    bot, text, ann, bea = await sync_to_async(setup)()
    lines = Lines(await AsyncClient().get("/api/stream/events", headers=bearer(text)))
    await sync_to_async(challenges.do_challenge)(ann, bea.username, "ludo", 60)  # not to the bot
    mine = await sync_to_async(challenges.do_challenge)(ann, bot.username, "ludo", 60)
    assert (await lines.next())["challenge"]["id"] == mine.pk  # the first line it gets is its own
    await lines.close()


async def test_a_second_event_stream_is_refused_in_words_about_the_event_stream():
    _bot, _token, text = await sync_to_async(bot_with_token)()
    first = Lines(await AsyncClient().get("/api/stream/events", headers=bearer(text)))
    again = await AsyncClient().get("/api/stream/events", headers=bearer(text))
    assert again.status_code == 429
    message = again.json()["error"]["message"]
    assert "event stream" in message and "match" not in message, message
    await first.close()
