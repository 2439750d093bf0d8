"""The token settings page and becoming a bot (accounts/views_tokens.py;
docs/api.md "Tokens", "Bot accounts"; docs/features.md "Bot accounts and API
tokens"), closing an account revoking its tokens, the data file listing them,
and the tokens in the admin."""

import json
import logging
import re

import pytest
from django.test import Client

from accounts import closing, data, tokens
from accounts.models import ApiToken, Rating, User
from tests.factories import make_user

pytestmark = pytest.mark.django_db
PASSWORD = "a sturdy pass 42"
PAGE, REVOKE, BOT = "/account/tokens/", "/account/tokens/revoke/", "/account/tokens/bot/"
TOKEN_TEXT = re.compile(r"plr_[A-Za-z0-9_-]{43}")


def signed_in(user) -> Client:
    client = Client(enforce_csrf_checks=False)
    client.force_login(user)
    return client


def live(user) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user=user, revoked_at=None))


def test_the_pages_need_signing_in_and_the_profile_links_to_them():
    for url in (PAGE, BOT):
        response = Client().get(url)
        assert response.status_code == 302 and "/login/" in response["Location"]
    user = make_user("ann")
    assert f'href="{PAGE}"' in signed_in(user).get("/u/ann/").content.decode()


def test_a_person_is_offered_read_only_and_told_why(caplog):
    client = signed_in(make_user())
    page = client.get(PAGE).content.decode()
    play = re.search(r'<input type="checkbox" name="scopes" value="play"[^>]*>', page).group(0)
    assert "disabled" in play and "Only a bot account's token may play" in page
    assert "Make this account a bot" in page and "You have no tokens." in page


def test_a_made_token_is_shown_once_uncached_never_in_a_url_or_log(caplog):
    user = make_user()
    client = signed_in(user)
    caplog.set_level(logging.DEBUG)
    response = client.post(PAGE, {"name": "my reader", "scopes": ["read"]})
    assert response.status_code == 200 and "Location" not in response
    assert "no-store" in response["Cache-Control"]
    text = TOKEN_TEXT.search(response.content.decode()).group(0)
    token = ApiToken.objects.get(user=user)
    assert tokens.authenticate(text).pk == token.pk and token.scopes == "read"
    assert text not in caplog.text
    # Shown once: the list gives its prefix only, and nothing stored holds the text.
    listing = client.get(PAGE).content.decode()
    assert text not in listing and f"{token.prefix}…" in listing and "my reader" in listing
    assert text not in json.dumps(list(ApiToken.objects.values()), default=str)
    assert client.session.get("_messages") is None


@pytest.mark.parametrize("form, words", [
    ({"name": "", "scopes": ["read"]}, "name of 1 to 40"),
    ({"name": "   ", "scopes": ["read"]}, "name of 1 to 40"),
    ({"name": "x" * 41, "scopes": ["read"]}, "name of 1 to 40"),
    ({"name": "reader"}, "Choose the token"),
    ({"name": "reader", "scopes": ["read", "admin"]}, "Choose the token"),
    ({"name": "player", "scopes": ["play"]}, "Only a bot account"),
])
def test_a_refused_token_says_why_and_makes_nothing(form, words):
    user = make_user()
    response = signed_in(user).post(PAGE, form)
    assert response.status_code == 400 and words in response.content.decode()
    assert not TOKEN_TEXT.search(response.content.decode())
    assert not ApiToken.objects.exists()


def test_the_eleventh_token_is_refused():
    user = make_user()
    for i in range(tokens.MAX_TOKENS):
        tokens.make_token(user, f"t{i}", ["read"])
    response = signed_in(user).post(PAGE, {"name": "one more", "scopes": ["read"]})
    assert response.status_code == 400 and "revoke one first" in response.content.decode()
    assert len(live(user)) == tokens.MAX_TOKENS


def test_revoking_takes_the_token_off_the_list_and_a_foreign_or_get_revoke_changes_nothing():
    ann, bob = make_user(), make_user()
    token, text = tokens.make_token(ann, "old script", ["read"])
    theirs, _ = tokens.make_token(bob, "bob's", ["read"])
    client = signed_in(ann)
    for bad in (theirs.pk, "x", ""):
        response = client.post(REVOKE, {"token": bad})
        assert response.status_code == 400 and "no such token" in response.content.decode()
    response = client.get(REVOKE, {"token": token.pk})
    assert response.status_code == 405 and "nothing was changed" in response.content.decode()
    assert len(live(ann)) == len(live(bob)) == 1
    response = client.post(REVOKE, {"token": token.pk}, follow=True)
    assert response.redirect_chain == [(PAGE, 302)]
    page = response.content.decode()
    assert "revoked" in page and "old script" in page  # the message names it
    assert "Revoke old script" not in page and tokens.authenticate(text) is None


def test_the_forms_need_their_csrf_token():
    user = make_user()
    token, _ = tokens.make_token(user, "kept", ["read"])
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.post(REVOKE, {"token": token.pk}).status_code == 403
    assert client.post(PAGE, {"name": "new", "scopes": ["read"]}).status_code == 403
    assert client.post(BOT, {"password": PASSWORD}).status_code == 403
    assert live(user) == [token] and not User.objects.get(pk=user.pk).is_bot


def test_becoming_a_bot_needs_the_password_and_is_for_good():
    user = make_user()
    client = signed_in(user)
    page = client.get(BOT).content.decode()
    assert "for good" in page and "rated match" in page and 'name="password"' in page
    response = client.post(BOT, {"password": "wrong"})
    assert response.status_code == 400 and "not your password" in response.content.decode()
    user.refresh_from_db()
    assert not user.is_bot
    assert client.get(BOT + "?password=" + PASSWORD).status_code == 200  # a GET changes nothing
    response = client.post(BOT, {"password": PASSWORD}, follow=True)
    assert response.redirect_chain == [(PAGE, 302)]
    user.refresh_from_db()
    assert user.is_bot
    assert client.post(BOT, {"password": PASSWORD}).status_code == 400  # a bot already
    # Now the play scope is offered, and a play token is made.
    page = client.get(PAGE).content.decode()
    play = re.search(r'<input type="checkbox" name="scopes" value="play"[^>]*>', page).group(0)
    assert "disabled" not in play
    assert client.post(PAGE, {"name": "bot", "scopes": ["read", "play"]}).status_code == 200
    assert ApiToken.objects.get(user=user).scopes == "read play"


def test_an_account_with_a_rated_match_cannot_become_a_bot_and_is_told():
    user = make_user()
    Rating.objects.create(user=user, kind="ludo", games=3)
    client = signed_in(user)
    assert "cannot become one" in client.get(PAGE).content.decode()
    assert 'name="password"' not in client.get(BOT).content.decode()
    response = client.post(BOT, {"password": PASSWORD})
    assert response.status_code == 400 and "rated match" in response.content.decode()
    assert not User.objects.get(pk=user.pk).is_bot


def test_closing_an_account_revokes_its_tokens(monkeypatch, django_capture_on_commit_callbacks):
    monkeypatch.setattr(closing.sockets, "password_changed", lambda user_id: None)
    told = []
    monkeypatch.setattr(tokens, "_tell_streams", lambda user_id, ids: told.append((user_id, ids)))
    user = tokens.make_bot(make_user())
    a, text_a = tokens.make_token(user, "a", ["read", "play"])
    b, _ = tokens.make_token(user, "b", ["read"])
    with pytest.raises(closing.CloseError):
        closing.close_account(user, "wrong")
    assert len(live(user)) == 2  # a refused closing revokes nothing
    with django_capture_on_commit_callbacks(execute=True):
        closing.close_account(user, PASSWORD)
    assert live(user) == [] and tokens.authenticate(text_a) is None
    assert [(u, sorted(ids)) for u, ids in told] == [(user.pk, sorted([a.pk, b.pk]))]


def test_the_data_file_lists_the_tokens_never_their_digest():
    user = make_user()
    token, text = tokens.make_token(user, "reader", ["read"])
    tokens.revoke(user, token.pk)
    tokens.make_token(user, "second", ["read"])
    built = data.build(user)
    assert [t["name"] for t in built["api_tokens"]] == ["reader", "second"]
    first = built["api_tokens"][0]
    assert first["prefix"] == token.prefix and first["scopes"] == ["read"] and first["revoked_at"]
    dumped = data.dumps(built)
    assert token.digest not in dumped and text not in dumped and built["account"]["bot"] is False


class TestAdmin:
    @pytest.fixture
    def root(self):
        return User.objects.create_superuser("root", "root@example.com", PASSWORD)

    def test_tokens_are_listed_read_only_and_revoked_by_the_action(self, root):
        user = make_user("ann")
        token, text = tokens.make_token(user, "leaky", ["read"])
        client = signed_in(root)
        listing = client.get("/admin/accounts/apitoken/").content.decode()
        assert "leaky" in listing and f"{token.prefix}…" in listing and token.digest not in listing
        change = client.get(f"/admin/accounts/apitoken/{token.pk}/change/").content.decode()
        assert token.digest not in change and 'name="name"' not in change  # read-only
        assert client.get("/admin/accounts/apitoken/add/").status_code == 403
        response = client.post("/admin/accounts/apitoken/", {"action": "revoke_tokens",
                                                             "_selected_action": [token.pk]}, follow=True)
        assert "1 token revoked" in response.content.decode()
        assert tokens.authenticate(text) is None

    def test_is_bot_is_shown_read_only_and_filterable(self, root):
        bot = tokens.make_bot(make_user("robo"))
        make_user("ann")
        client = signed_in(root)
        listing = client.get("/admin/accounts/user/?is_bot__exact=1").content.decode()
        assert "robo" in listing and ">ann<" not in listing
        change = client.get(f"/admin/accounts/user/{bot.pk}/change/").content.decode()
        assert "Bot account" in change and 'name="is_bot"' not in change
