"""Access (README "Moderation"): the "Moderators" group holds just the moderation
permissions; moderators differ from superusers; log-ins (the admin's and the
site's) are rate-limited by django-axes; the suite's own force_login works."""

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import Group
from django.test import Client, override_settings

from accounts.models import User
from core.proxy import client_ip, scope_client_ip
from tests.factories import make_user

pytestmark = pytest.mark.django_db

PASSWORD = "a sturdy pass 42"


def test_the_moderators_group_has_just_the_moderation_permissions():
    group = Group.objects.get(name="Moderators")
    perms = {f"{p.content_type.app_label}.{p.codename}"
             for p in group.permissions.select_related("content_type")}
    assert perms == {
        "accounts.view_user", "accounts.view_rating",
        "games.view_match", "games.view_seat", "games.view_move", "games.view_ratingchange",
        "games.view_ratingvoid", "moderation.view_auditlog", "moderation.view_report",
        "moderation.change_report",
        "moderation.ban_user", "moderation.abort_match", "moderation.void_match", "moderation.revoke_invite",
        "matchmaking.view_room", "matchmaking.view_roomseat", "matchmaking.view_roommember",
        "matchmaking.view_invite", "matchmaking.view_queueentry",
        "moderation.disqualify_arena_player", "arenas.view_arena", "arenas.view_arenaschedule",
        "arenas.view_arenaplayer", "arenas.view_arenamatch",
    }


def test_a_moderator_is_not_a_superuser(moderator):
    moderator = User.objects.get(pk=moderator.pk)
    assert not moderator.is_superuser
    assert moderator.has_perm("moderation.ban_user") and moderator.has_perm("moderation.void_match")
    for perm in ("accounts.delete_user", "accounts.change_user", "accounts.add_user",
                 "accounts.change_rating", "games.change_match", "games.delete_report",
                 "games.change_auditlog", "auth.change_group", "axes.delete_accessattempt"):
        assert not moderator.has_perm(perm), perm


def attempt(client, url, username, password):
    return client.post(url, {"username": username, "password": password})


@pytest.mark.parametrize("url", ["/admin/login/", "/login/"])
def test_password_guessing_locks_the_username_out_for_that_client(url, superuser):
    guesser = Client(REMOTE_ADDR="203.0.113.7")
    for _ in range(4):
        assert attempt(guesser, url, "root", "wrong guess 1").status_code == 200
    locked = attempt(guesser, url, "root", "wrong guess 1")
    assert locked.status_code == 429 and "Too many log-in attempts" in locked.text
    # Even the right password is refused now, on both log-in forms.
    for form in ("/admin/login/", "/login/"):
        response = attempt(guesser, form, "root", PASSWORD)
        assert response.status_code == 429 and SESSION_KEY not in guesser.session
    # Another client, and another account from this client, are not locked out.
    elsewhere = Client(REMOTE_ADDR="198.51.100.2")
    assert attempt(elsewhere, "/admin/login/", "root", PASSWORD).status_code == 302
    make_user("ada")
    assert attempt(guesser, "/login/", "ada", PASSWORD).status_code == 302


def test_the_lockout_counts_a_username_whatever_its_case():
    make_user("victim")
    guesser = Client(REMOTE_ADDR="203.0.113.9")
    for _ in range(4):
        assert attempt(guesser, "/login/", "victim", "wrong guess 1").status_code == 200
    assert attempt(guesser, "/login/", "victim", "wrong guess 1").status_code == 429
    # Log-in ignores case, so the lockout does: no spelling of the name gets in.
    for spelling in ("VICTIM", "Victim", " vIcTiM "):
        response = attempt(guesser, "/login/", spelling, PASSWORD)
        assert response.status_code == 429 and SESSION_KEY not in guesser.session


def test_spellings_of_one_username_share_one_count():
    make_user("victim")
    guesser = Client(REMOTE_ADDR="203.0.113.10")
    for spelling in ("victim", "VICTIM", "Victim", "vICTIM"):
        assert attempt(guesser, "/login/", spelling, "wrong guess 1").status_code == 200
    assert attempt(guesser, "/login/", "ViCtIm", "wrong guess 1").status_code == 429


def test_a_success_clears_the_count(superuser):
    c = Client(REMOTE_ADDR="203.0.113.8")
    for _ in range(4):
        attempt(c, "/admin/login/", "root", "nope nope 1")
    assert attempt(c, "/admin/login/", "root", PASSWORD).status_code == 302
    c.logout()
    for _ in range(4):
        assert attempt(c, "/admin/login/", "root", "nope nope 1").status_code == 200
    assert attempt(c, "/admin/login/", "root", PASSWORD).status_code == 302


def test_non_staff_cannot_log_in_to_the_admin():
    make_user("bob")
    c = Client()
    response = attempt(c, "/admin/login/", "bob", PASSWORD)
    assert response.status_code == 200 and SESSION_KEY not in c.session
    assert "staff account" in response.text


def test_force_login_still_works(client):
    user = make_user()
    client.force_login(user)
    assert client.get("/").context["user"] == user


class Request:
    def __init__(self, remote, forwarded=None):
        self.META = {"REMOTE_ADDR": remote}
        if forwarded is not None:
            self.META["HTTP_X_FORWARDED_FOR"] = forwarded


def test_a_short_or_foreign_forwarded_for_falls_back_to_the_peer():
    with override_settings(TRUSTED_PROXY_COUNT=2):
        assert client_ip(Request("127.0.0.1", "1.2.3.4")) == "127.0.0.1"  # did not pass both proxies
    with override_settings(TRUSTED_PROXY_COUNT=1):
        assert client_ip(Request("127.0.0.1", "1.2.3.4, not-an-address")) == "127.0.0.1"
        assert client_ip(Request("127.0.0.1", "6.6.6.6, 2001:DB8::1")) == "2001:db8::1"


def test_a_websocket_scope_has_the_same_client_address():
    scope = {"type": "websocket", "client": ["127.0.0.1", 5000],
             "headers": [(b"x-forwarded-for", b"6.6.6.6"), (b"x-forwarded-for", b"1.2.3.4")]}
    assert scope_client_ip(scope) == "127.0.0.1"
    with override_settings(TRUSTED_PROXY_COUNT=1):
        assert scope_client_ip(scope) == "1.2.3.4"
        assert scope_client_ip({"type": "websocket", "client": None, "headers": []}) is None


def test_the_client_address_behind_a_trusted_proxy():
    assert client_ip(Request("10.0.0.1", "1.2.3.4")) == "10.0.0.1"  # no proxy trusted: a spoofable header
    with override_settings(TRUSTED_PROXY_COUNT=1):
        assert client_ip(Request("127.0.0.1", "6.6.6.6, 1.2.3.4")) == "1.2.3.4"
        assert client_ip(Request("127.0.0.1")) == "127.0.0.1"
    with override_settings(TRUSTED_PROXY_COUNT=2):
        assert client_ip(Request("127.0.0.1", "6.6.6.6, 1.2.3.4, 10.0.0.9")) == "1.2.3.4"


def test_a_spelling_that_only_the_database_folds_to_an_account_shares_its_count():
    """Log-in finds the account by the database's case rules: PostgreSQL's
    UPPER turns a dotless ı into I, so "ıris" logs in to "iris" there (SQLite
    folds ASCII only). Whatever the database, no spelling escapes the count
    of the account it would log in to, and none clears it."""
    make_user("iris")
    guesser = Client(REMOTE_ADDR="203.0.113.11")
    for _ in range(5):
        attempt(guesser, "/login/", "iris", "wrong guess 1")
    for spelling in ("ıris", "irıs", "ırıs", "IRIS"):
        for _ in range(5):
            attempt(guesser, "/login/", spelling, "wrong guess 2")
        response = attempt(guesser, "/login/", spelling, PASSWORD)
        assert response.status_code != 302 and SESSION_KEY not in guesser.session, spelling
    assert attempt(guesser, "/login/", "iris", PASSWORD).status_code == 429


def test_two_accounts_that_differ_only_by_a_dotless_i_each_log_in_to_their_own():
    iris, dotless = make_user("iris"), make_user("ıris")
    for user in (iris, dotless):
        c = Client(REMOTE_ADDR="203.0.113.12")
        assert attempt(c, "/login/", user.username, PASSWORD).status_code == 302
        assert c.session[SESSION_KEY] == str(user.pk)


def test_a_username_longer_than_any_account_is_refused_as_such():
    response = attempt(Client(), "/login/", "a" * 50_001, "x")
    assert response.status_code == 200
    assert "at most 150 characters" in response.text
    # The admin's own form: no such account (SQLite refused the pattern: HTTP 500).
    response = attempt(Client(), "/admin/login/", "a" * 50_001, "x")
    assert response.status_code == 200 and "correct username and password" in response.text
