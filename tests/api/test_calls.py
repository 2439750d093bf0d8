"""The API's calls besides moves (docs/api.md "Calls"): each one's happy
path and its refusals, as JSON errors with a code, nothing changed."""

import pytest
from django.test import override_settings

from games.models import Match
from tests.api.conftest import bearer, bot_with_token
from tests.hidden import silence_tasks

pytestmark = pytest.mark.django_db


def _post(client, path, text, body=None):
    return client.post(path, data=body if body is not None else {}, content_type="application/json",
                       headers=bearer(text))


def test_a_bot_starts_a_match_against_computers(client, monkeypatch):
    silence_tasks(monkeypatch)
    bot, _token, text = bot_with_token()
    answer = _post(client, "/api/match/computer", text, {"game": "ludo", "players": 3, "turn_seconds": 30})
    assert answer.status_code == 200, answer.content
    match = Match.objects.get(public_id=answer.json()["match"])
    seats = list(match.seats.order_by("index"))
    assert seats[0].user == bot and [s.computer_level for s in seats[1:]] == ["normal", "normal"]
    assert match.turn_seconds == 30 and not match.rated and match.status == Match.Status.ACTIVE


@pytest.mark.parametrize("body", [
    {"game": "chess"}, {"game": "ludo", "players": 9}, {"game": "ludo", "turn_seconds": 7},
    {"game": "ludo", "level": "godlike"}, {"players": 2}, {"game": ["ludo"]},
])
def test_a_computer_match_with_bad_fields_is_a_bad_request(client, body):
    _bot, _token, text = bot_with_token()
    answer = _post(client, "/api/match/computer", text, body)
    assert (answer.status_code, answer.json()["error"]["code"]) == (400, "bad_request"), answer.content
    assert not Match.objects.exists()


@override_settings(PARLOUR_COMPUTER_MATCHES_PER_USER=1)
def test_the_play_page_s_limit_on_computer_matches_holds(client, monkeypatch):
    silence_tasks(monkeypatch)
    _bot, _token, text = bot_with_token()
    assert _post(client, "/api/match/computer", text, {"game": "ludo"}).status_code == 200
    answer = _post(client, "/api/match/computer", text, {"game": "ludo"})
    assert (answer.status_code, answer.json()["error"]["code"]) == (409, "not_allowed")
    assert Match.objects.count() == 1


def test_thirty_calls_a_minute_then_429(client, monkeypatch):
    silence_tasks(monkeypatch)
    _bot, _token, text = bot_with_token()
    codes = [_post(client, "/api/match/computer", text, {"game": "nothing"}).status_code for _ in range(31)]
    assert codes[:30] == [400] * 30 and codes[30] == 429
