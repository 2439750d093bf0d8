"""``POST /api/match/<id>/move`` (docs/api.md "Calls", "Errors"): the match
page's refusals as JSON errors with a code, nothing changed; the move rate."""

import pytest

from games.engine import get_rules
from games.models import Match
from tests.api.conftest import bearer, bot_with_token
from tests.factories import ludo_state, make_match, make_user

pytestmark = pytest.mark.django_db


def _bot_match(**kwargs):
    """A Ludo match: the bot in seat 0, to move a piece (a 6 rolled); a person in seat 1."""
    user, token, text = bot_with_token()
    state = ludo_state(phase="move", die=6, turn=0)
    match = make_match("ludo", ("human", "human"), users=[user, make_user()], state=state, **kwargs)
    return user, text, match


def _post(client, match, body, text, raw=None):
    return client.post(f"/api/match/{match.public_id}/move", data=raw if raw is not None else body,
                       content_type="application/json", headers=bearer(text))


def _legal(match):
    rules = get_rules(match.kind)
    return [str(m) for m in rules.legal_moves(rules.load(match.state))]


def test_a_legal_move_is_played_and_answers_the_new_version(client):
    _user, text, match = _bot_match()
    move = _legal(match)[0]
    answer = _post(client, match, {"move": move, "version": match.version}, text)
    assert answer.status_code == 200, answer.content
    match.refresh_from_db()
    assert answer.json() == {"version": match.version} and match.ply_count >= 1


@pytest.mark.parametrize("body, raw", [
    ({"move": "move 0"}, None),                       # no version
    ({"move": 3, "version": 1}, None),                # move of the wrong type
    ({"move": "move 0", "version": "1"}, None),       # version as text
    ({"move": "move 0", "version": True}, None),      # a boolean is not a version
    (None, "{not json"),                              # not JSON
    (None, '["move 0", 1]'),                          # JSON, not an object
])
def test_a_malformed_body_is_a_bad_request_and_changes_nothing(client, body, raw):
    _user, text, match = _bot_match()
    answer = _post(client, match, body, text, raw=raw)
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["code"] == "bad_request"
    assert Match.objects.get(pk=match.pk).version == match.version


def test_refusals_carry_the_documented_codes_and_change_nothing(client):
    user, text, match = _bot_match()
    move = _legal(match)[0]
    cases = [
        ({"move": "fly away", "version": match.version}, 422, "bad_move"),
        ({"move": move, "version": match.version - 1}, 409, "stale_version"),
    ]
    for body, status, code in cases:
        answer = _post(client, match, body, text)
        assert (answer.status_code, answer.json()["error"]["code"]) == (status, code), answer.content
    stale = _post(client, match, {"move": move, "version": 0}, text)
    assert stale.json()["error"]["version"] == match.version
    assert Match.objects.get(pk=match.pk).version == match.version


def test_not_your_turn_and_not_a_player(client):
    user, text, match = _bot_match()
    Match.objects.filter(pk=match.pk).update(state=ludo_state(phase="move", die=6, turn=1))
    answer = _post(client, match, {"move": "move 0", "version": match.version}, text)
    assert (answer.status_code, answer.json()["error"]["code"]) == (409, "not_your_turn")
    _other, other_text, _m = _bot_match()
    answer = _post(client, match, {"move": "move 0", "version": match.version}, other_text)
    assert (answer.status_code, answer.json()["error"]["code"]) == (403, "not_a_player")


def test_another_account_s_private_match_does_not_exist_for_it(client):
    _user, _text, match = _bot_match(is_public=False)
    _other, other_text, _m = _bot_match()
    answer = _post(client, match, {"move": "move 0", "version": match.version}, other_text)
    assert (answer.status_code, answer.json()["error"]["code"]) == (404, "not_found")
    answer = client.post("/api/match/nosuchmatch/move", data={"move": "x", "version": 1},
                         content_type="application/json", headers=bearer(other_text))
    assert (answer.status_code, answer.json()["error"]["code"]) == (404, "not_found")


def test_a_read_token_cannot_move_and_a_missing_one_is_unauthorized(client):
    from accounts import tokens

    user, _text, match = _bot_match()
    _row, reader = tokens.make_token(user, "reader", ["read"])
    answer = _post(client, match, {"move": "move 0", "version": match.version}, reader)
    assert (answer.status_code, answer.json()["error"]["code"]) == (403, "missing_scope")
    answer = client.post(f"/api/match/{match.public_id}/move", data={"move": "move 0", "version": 1},
                         content_type="application/json")
    assert (answer.status_code, answer.json()["error"]["code"]) == (401, "unauthorized")
    assert Match.objects.get(pk=match.pk).version == match.version


def test_a_flood_of_moves_is_refused_with_retry_after(client):
    _user, text, match = _bot_match()
    answers = [_post(client, match, {"move": "fly away", "version": match.version}, text) for _ in range(11)]
    assert [a.status_code for a in answers[:10]] == [422] * 10
    flood = answers[10]
    assert flood.status_code == 429 and flood.json()["error"]["code"] == "rate_limited"
    assert int(flood["Retry-After"]) >= 1


def test_a_banned_account_s_token_is_refused(client):
    from datetime import timedelta

    from django.utils import timezone

    from accounts.models import User

    user, text, match = _bot_match()
    User.objects.filter(pk=user.pk).update(banned_until=timezone.now() + timedelta(days=1))
    answer = _post(client, match, {"move": "move 0", "version": match.version}, text)
    assert (answer.status_code, answer.json()["error"]["code"]) == (403, "account_banned")
    assert Match.objects.get(pk=match.pk).version == match.version


def test_the_api_speaks_english_whatever_the_language_asked_for(client):
    """docs/api.md: the error messages are part of the contract; a German
    account asking in Arabic still reads them in English."""
    from accounts.models import User

    user, text, match = _bot_match()
    User.objects.filter(pk=user.pk).update(language="de")
    answer = client.post(f"/api/match/{match.public_id}/move", data={"move": "move 0", "version": 0},
                         content_type="application/json", headers={**bearer(text), "Accept-Language": "ar"})
    assert answer.status_code == 409 and answer["Content-Language"] == "en"
    english = answer.json()["error"]["message"]
    assert english.isascii() and english
