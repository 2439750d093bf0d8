"""The API's calls besides moves (docs/api.md "Calls"): each one's happy
path and its refusals, as JSON errors with a code, nothing changed."""

import pytest
from django.test import override_settings

from games import actions, chat, push
from games.models import Match
from matchmaking import together
from matchmaking.models import Challenge
from tests.api.conftest import bearer, bot_with_token
from tests.factories import make_match, make_user
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


def _match_with(bot, person=None, **kwargs):
    return make_match("ludo", ("human", "human"), users=[bot, person or make_user()], **kwargs)


def test_leave_answers_the_version_and_a_second_leave_is_not_allowed(client, monkeypatch):
    silence_tasks(monkeypatch)
    bot, _token, text = bot_with_token()
    match = _match_with(bot)
    answer = _post(client, f"/api/match/{match.public_id}/leave", text)
    match.refresh_from_db()
    assert answer.status_code == 200 and answer.json() == {"version": match.version} and match.is_over
    again = _post(client, f"/api/match/{match.public_id}/leave", text)
    assert (again.status_code, again.json()["error"]["code"]) == (409, "not_allowed")


def test_chat_sends_a_preset_and_refuses_free_text_and_strangers(client, monkeypatch):
    sent = []

    async def send_chat(*args):
        sent.append(args)

    monkeypatch.setattr(push, "send_chat", send_chat)
    bot, _token, text = bot_with_token()
    match = _match_with(bot)
    preset = next(iter(chat.PRESETS))
    answer = _post(client, f"/api/match/{match.public_id}/chat", text, {"id": preset})
    assert answer.status_code == 200 and answer.json() == {}
    assert sent[0][0] == match.public_id and sent[0][2:] == (bot.pk, preset, bot.username)
    free = _post(client, f"/api/match/{match.public_id}/chat", text, {"id": "hello there"})
    assert (free.status_code, free.json()["error"]["code"]) == (400, "bad_request")
    _other, _t, other_text = bot_with_token()
    stranger = _post(client, f"/api/match/{match.public_id}/chat", other_text, {"id": preset})
    assert (stranger.status_code, stranger.json()["error"]["code"]) == (403, "not_a_player")
    private = _match_with(bot, is_public=False)
    hidden = _post(client, f"/api/match/{private.public_id}/chat", other_text, {"id": preset})
    assert (hidden.status_code, hidden.json()["error"]["code"]) == (404, "not_found")
    assert len(sent) == 1


def test_a_challenge_made_accepted_declined_and_cancelled(client, monkeypatch):
    silence_tasks(monkeypatch)
    monkeypatch.setattr(together, "send_task", lambda *a, **k: None)
    bot, _token, text = bot_with_token()
    other, _t, other_text = bot_with_token()
    made = _post(client, f"/api/challenge/{other.username}", text, {"game": "ludo", "turn_seconds": 60})
    assert made.status_code == 200, made.content
    challenge_id = made.json()["id"]
    stolen = _post(client, f"/api/challenge/{challenge_id}/accept", text)  # not the challenger's to accept
    assert (stolen.status_code, stolen.json()["error"]["code"]) == (409, "not_allowed")
    accepted = _post(client, f"/api/challenge/{challenge_id}/accept", other_text)
    assert accepted.status_code == 200
    match = Match.objects.get(public_id=accepted.json()["match"])
    assert {s.user_id for s in match.seats.all()} == {bot.pk, other.pk} and not match.rated
    roundabout = {"game": "roundabout", "turn_seconds": 60}
    again = _post(client, f"/api/challenge/{other.username}", text, roundabout)
    assert _post(client, f"/api/challenge/{again.json()['id']}/decline", other_text).json() == {}
    third = _post(client, f"/api/challenge/{other.username}", text, roundabout)
    assert _post(client, f"/api/challenge/{third.json()['id']}/cancel", text).json() == {}
    assert set(Challenge.objects.values_list("status", flat=True)) == {"accepted", "declined", "cancelled"}


def test_a_rated_challenge_starts_a_rated_match(client, monkeypatch):
    """Bots are rated through challenges (docs/api.md "Bot accounts")."""
    silence_tasks(monkeypatch)
    monkeypatch.setattr(together, "send_task", lambda *a, **k: None)
    bot, _token, text = bot_with_token()
    other, _t, other_text = bot_with_token()
    made = _post(client, f"/api/challenge/{other.username}", text, {"game": "ludo", "turn_seconds": 60,
                                                                    "rated": True})
    assert made.status_code == 200, made.content
    assert Challenge.objects.get(pk=made.json()["id"]).rated
    accepted = _post(client, f"/api/challenge/{made.json()['id']}/accept", other_text)
    assert Match.objects.get(public_id=accepted.json()["match"]).rated


@pytest.mark.parametrize("path, body, status, code", [
    ("/api/challenge/nobody-here", {"game": "ludo", "turn_seconds": 60}, 404, "not_found"),
    ("/api/challenge/{other}", {"game": "ludo", "turn_seconds": 60, "options": {"players": 4}}, 400,
     "bad_request"),
    ("/api/challenge/{other}", {"game": "ludo", "turn_seconds": 60, "rated": "yes"}, 400, "bad_request"),
    ("/api/challenge/{other}", {"game": "ludo", "turn_seconds": 60, "rated": True, "public": False}, 409,
     "not_allowed"),
    ("/api/challenge/{other}", {"game": "ludo"}, 400, "bad_request"),
    ("/api/challenge/{other}", {"game": "chess", "turn_seconds": 60}, 409, "not_allowed"),
    ("/api/challenge/{me}", {"game": "ludo", "turn_seconds": 60}, 409, "not_allowed"),
    ("/api/challenge/99999999/accept", None, 404, "not_found"),
    ("/api/challenge/abc/decline", None, 404, "not_found"),
])
def test_challenge_refusals(client, monkeypatch, path, body, status, code):
    monkeypatch.setattr(together, "send_task", lambda *a, **k: None)
    bot, _token, text = bot_with_token()
    other = make_user()
    answer = _post(client, path.format(other=other.username, me=bot.username), text, body)
    assert (answer.status_code, answer.json()["error"]["code"]) == (status, code), answer.content
    assert not Challenge.objects.exists()


def test_a_blocked_challenge_is_refused_as_the_profile_refuses_it(client, monkeypatch):
    from accounts import blocks

    monkeypatch.setattr(together, "send_task", lambda *a, **k: None)
    bot, _token, text = bot_with_token()
    other = make_user()
    blocks.do_block(other, bot.username)
    answer = _post(client, f"/api/challenge/{other.username}", text, {"game": "ludo", "turn_seconds": 60})
    assert (answer.status_code, answer.json()["error"]["code"]) == (409, "not_allowed")
    assert not Challenge.objects.exists()


def test_a_rematch_offered_then_accepted_starts_the_next_match(client, monkeypatch):
    silence_tasks(monkeypatch)
    monkeypatch.setattr(together, "send_task", lambda *a, **k: None)
    bot, _token, text = bot_with_token()
    other, _t, other_text = bot_with_token()
    match = _match_with(bot, other)
    early = _post(client, f"/api/match/{match.public_id}/rematch", text)
    assert (early.status_code, early.json()["error"]["code"]) == (409, "not_allowed")
    actions.leave_match(match.public_id, other)
    offered = _post(client, f"/api/match/{match.public_id}/rematch", text)
    assert offered.status_code == 200
    assert offered.json()["status"] == "open" and offered.json()["match"] is None
    accepted = _post(client, f"/api/match/{match.public_id}/rematch/accept", other_text)
    assert accepted.status_code == 200 and accepted.json()["match"], accepted.content
    assert Match.objects.filter(public_id=accepted.json()["match"], status=Match.Status.ACTIVE).exists()
    none = _post(client, "/api/match/nosuchmatch/rematch/decline", text)
    assert (none.status_code, none.json()["error"]["code"]) == (404, "not_found")


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_a_body_over_the_size_limit_is_a_json_413_and_nothing_moves(client, monkeypatch):
    silence_tasks(monkeypatch)
    bot, _token, text = bot_with_token()
    match = _match_with(bot)
    version = match.version
    body = {"move": "p" * 2000, "version": version}
    answer = _post(client, f"/api/match/{match.public_id}/move", text, body)
    assert (answer.status_code, answer.json()["error"]["code"]) == (413, "too_large"), answer.content
    match.refresh_from_db()
    assert match.version == version


def test_the_account_call_counts_against_the_call_limit(client):
    _bot, _token, text = bot_with_token()
    codes = [client.get("/api/account", headers=bearer(text)).status_code for _ in range(31)]
    assert codes[:30] == [200] * 30 and codes[30] == 429
