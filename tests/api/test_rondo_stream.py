"""Hidden information in the API's match stream (docs/api.md "Streams"): a
Rondo seat's stream carries the engine's view for that seat and nothing
more (``Rules.view``, whose own tests check that it states none of
``Rules.hidden``), never another seat's rack, and legal moves only on its
own turn (another seat's legal moves would name that seat's tiles); a
spectator's carries the public view. The bot plays through the API itself."""

import json
import random

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from games import actions
from games.engine import get_rules
from games.models import Match
from games.rondo import bot as rondo_bots
from tests.api.conftest import Lines, bearer, bot_with_token
from tests.factories import make_match, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

RONDO = get_rules("rondo")
KEYS = {"type", "version", "game", "seat", "status", "to_move", "deadline", "view", "legal_moves", "seats"}


def _turn(state, seat, rng) -> list[str]:
    """A whole turn for ``seat`` chosen from its own view, in notation."""
    return [str(m) for m in rondo_bots.normal_turn(RONDO.sample_state(RONDO.view(state, seat), seat, rng))]


def _check(line: dict, state, seat) -> None:
    assert set(line) == KEYS
    assert line["view"] == json.loads(json.dumps(RONDO.view(state, seat)))
    if seat is None or RONDO.to_move(state) != seat:
        assert line["legal_moves"] == []
    else:
        assert line["legal_moves"] == [str(m) for m in RONDO.legal_moves(state)]
    # The only rack written out is the viewer's own (a spectator: none).
    racks = {fact[1]: sorted(fact[2]) for fact in RONDO.hidden(state, None) if fact[0] == "rack"}
    shown = (line["view"].get("private") or {}).get("rack")
    assert shown is None if seat is None else sorted(shown) == racks[seat]


async def test_a_rondo_seat_s_stream_never_holds_another_seat_s_rack(monkeypatch):
    from tests.hidden import silence_tasks

    silence_tasks(monkeypatch)

    def setup():
        bot, _token, text = bot_with_token()
        _watcher, _t, watcher_text = bot_with_token()
        person = make_user()
        return bot, text, watcher_text, person, make_match("rondo", ("human", "human"), users=[person, bot])

    bot, text, watcher_text, person, match = await sync_to_async(setup)()
    mine = Lines(await AsyncClient().get(f"/api/match/{match.public_id}/stream", headers=bearer(text)))
    watching = Lines(await AsyncClient().get(f"/api/match/{match.public_id}/stream",
                                             headers=bearer(watcher_text)))
    rng = random.Random(5)
    for _ in range(8):
        row = await sync_to_async(Match.objects.get)(pk=match.pk)
        state = RONDO.load(row.state)
        line, public = await mine.next(), await watching.next()
        assert line["version"] == public["version"] == row.version
        _check(line, state, 1)
        _check(public, state, None)
        if row.status != Match.Status.ACTIVE:
            break
        who = RONDO.to_move(state)
        if who == 1:  # the bot plays through the API, its own legal moves in hand
            assert line["legal_moves"]
            answer = await AsyncClient().post(
                f"/api/match/{match.public_id}/move", {"move": _turn(state, 1, rng), "version": row.version},
                content_type="application/json", headers=bearer(text))
            assert answer.status_code == 200, answer.content
        else:
            await sync_to_async(actions.play_move)(match.public_id, person, _turn(state, 0, rng), row.version)
    await mine.close()
    await watching.close()
