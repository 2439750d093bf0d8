"""Personal API tokens and bot accounts (accounts/tokens.py, docs/api.md
"Tokens", "Bot accounts"), and the API's token check (api/auth.py)."""

import pytest

from accounts import tokens
from accounts.models import ApiToken, Rating
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_a_token_is_stored_as_its_digest_and_shown_once():
    user = make_user()
    token, text = tokens.make_token(user, "my reader", ["read"])
    assert text.startswith("plr_") and len(text) > 40
    row = ApiToken.objects.get(pk=token.pk)
    assert row.digest == tokens.digest(text) and text not in (row.digest, row.prefix, row.name)
    assert tokens.authenticate(text).pk == token.pk
    assert tokens.authenticate(text + "x") is None


def test_a_person_s_token_never_plays_and_nothing_is_made():
    user = make_user()
    with pytest.raises(tokens.TokenRefused) as refused:
        tokens.make_token(user, "player", ["play"])
    assert refused.value.code == "play_needs_bot"
    assert not ApiToken.objects.exists()


def test_an_account_with_a_rated_match_cannot_become_a_bot():
    user = make_user()
    Rating.objects.create(user=user, kind="ludo", games=1)
    with pytest.raises(tokens.TokenRefused):
        tokens.make_bot(user)
    user.refresh_from_db()
    assert not user.is_bot


def test_a_revoked_token_no_longer_authenticates():
    user = tokens.make_bot(make_user())
    token, text = tokens.make_token(user, "bot", ["play", "read"])
    assert token.scopes == "read play"
    tokens.revoke(user, token.pk)
    assert tokens.authenticate(text) is None


def test_another_account_cannot_revoke_a_token():
    owner, other = make_user(), make_user()
    token, text = tokens.make_token(owner, "mine", ["read"])
    with pytest.raises(tokens.TokenRefused):
        tokens.revoke(other, token.pk)
    assert tokens.authenticate(text) is not None


def test_the_api_refuses_missing_wrong_and_unscoped_tokens_with_json(client):
    user = make_user()
    _, text = tokens.make_token(user, "reader", ["read"])
    missing = client.get("/api/account")
    assert missing.status_code == 401 and missing.json()["error"]["code"] == "unauthorized"
    wrong = client.get("/api/account", headers={"Authorization": "Bearer plr_nonsense"})
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "unauthorized"
    ok = client.get("/api/account", headers={"Authorization": f"Bearer {text}"})
    assert ok.status_code == 200
    assert ok.json() == {"id": user.pk, "username": user.username, "bot": False, "scopes": ["read"]}
