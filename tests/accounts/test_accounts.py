"""Sign-up, log-in/out, password change and reset, public profiles."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts import tasks
from accounts.models import User

pytestmark = pytest.mark.django_db

GOOD = {
    "username": "ada",
    "email": "ada@example.com",
    "password1": "correct horse battery",
    "password2": "correct horse battery",
}


def test_signup_creates_user_and_logs_in(client):
    resp = client.post(reverse("signup"), GOOD)
    assert resp.status_code == 302
    assert resp["Location"] == reverse("email_sent")  # "check your mail", then where to start
    page = client.get(resp["Location"]).content.decode()
    assert "Welcome to Parlour, ada!" in page and "Check your mail" in page
    assert f'href="{reverse("play")}"' in page
    user = User.objects.get(username="ada")
    assert user.email == "ada@example.com" and not user.email_confirmed
    assert int(client.session["_auth_user_id"]) == user.pk


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"username": ""}, "username"),
        ({"username": "has space!"}, "username"),
        ({"username": "x" * 200}, "username"),
        ({"email": "not-an-email"}, "email"),
        ({"email": ""}, "email"),
        ({"password2": "something else"}, "password2"),
        ({"password1": "123", "password2": "123"}, "password2"),
        ({"password1": "password", "password2": "password"}, "password2"),
        ({"password1": "ada@example.com", "password2": "ada@example.com"}, "password2"),
    ],
)
def test_signup_bad_input_is_refused_with_an_error_and_creates_nothing(client, change, field):
    resp = client.post(reverse("signup"), {**GOOD, **change})
    assert resp.status_code == 400
    assert resp.context["form"].errors[field]
    assert not User.objects.exists()
    assert "_auth_user_id" not in client.session


def test_signup_refuses_a_taken_username_whatever_the_case(client):
    """(A taken email is no error: tests/accounts/test_email_confirmation.py, "no oracle".)"""
    User.objects.create_user("Ada", "first@example.com", "pw-unused-123")
    resp = client.post(reverse("signup"), GOOD)
    assert resp.status_code == 400 and "username" in resp.context["form"].errors
    assert User.objects.count() == 1


def test_a_friend_sent_to_log_in_can_sign_up_and_still_arrive(client):
    """An invite's "Log in" page links to sign-up with where the person was
    going; the new account lands there. Another site's address is ignored."""
    going = "/rooms/ABCD-1234/join/"
    login_page = client.get(reverse("login") + f"?next={going}").text
    assert f'href="{reverse("signup")}?next=/rooms/ABCD-1234/join/"' in login_page
    form = client.get(reverse("signup") + f"?next={going}").text
    assert f'<input type="hidden" name="next" value="{going}">' in form
    assert f'href="{reverse("login")}?next=/rooms/ABCD-1234/join/"' in form
    resp = client.post(reverse("signup"), {**GOOD, "next": going})
    assert resp.status_code == 302
    assert resp["Location"] == reverse("email_sent") + "?next=%2Frooms%2FABCD-1234%2Fjoin%2F"
    assert f'<a class="button" href="{going}">Continue</a>' in client.get(resp["Location"]).text


@pytest.mark.parametrize("bad", ["//evil.example/", "https://evil.example/x", "javascript:alert(1)",
                                 "http:///evil.example", "\\\\evil.example"])
def test_sign_up_never_sends_anyone_to_another_site(client, bad):
    form = client.get(reverse("signup"), {"next": bad}).text
    assert "evil" not in form and "javascript" not in form
    resp = client.post(reverse("signup"), {**GOOD, "next": bad})
    assert resp.status_code == 302 and resp["Location"] == reverse("email_sent")  # never the bad one


def test_signup_with_missing_fields_or_junk_is_a_400_not_a_500(client):
    assert client.post(reverse("signup"), {}).status_code == 400
    assert client.post(reverse("signup"), {"username": ["a", "b"], "junk": "x"}).status_code == 400
    assert client.put(reverse("signup")).status_code == 405


def test_login_logout_and_login_again(client):
    User.objects.create_user("ada", "ada@example.com", GOOD["password1"])
    resp = client.post(reverse("login"), {"username": "ada", "password": "wrong"})
    assert resp.status_code == 200 and resp.context["form"].errors
    assert "_auth_user_id" not in client.session
    resp = client.post(reverse("login"), {"username": "ada", "password": GOOD["password1"]})
    assert resp.status_code == 302
    assert "_auth_user_id" in client.session
    assert client.post(reverse("logout")).status_code == 302
    assert "_auth_user_id" not in client.session


def test_password_change(client):
    user = User.objects.create_user("ada", "ada@example.com", GOOD["password1"])
    client.force_login(user)
    resp = client.post(
        reverse("password_change"),
        {
            "old_password": GOOD["password1"],
            "new_password1": "a new sturdy pw",
            "new_password2": "a new sturdy pw",
        },
    )
    assert resp.status_code == 302
    user.refresh_from_db()
    assert user.check_password("a new sturdy pw")


def test_password_reset_by_email(client, reset_mail_sent_at_once):
    User.objects.create_user("ada", "ada@example.com", GOOD["password1"])
    resp = client.post(reverse("password_reset"), {"email": "ada@example.com"})
    assert resp.status_code == 302
    assert reset_mail_sent_at_once == [1]
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/password/reset/\S+/)", mail.outbox[0].body).group(1)
    resp = client.get(link, follow=True)
    form_url = resp.redirect_chain[-1][0]
    resp = client.post(form_url, {"new_password1": "brand new pw 42", "new_password2": "brand new pw 42"})
    assert resp.status_code == 302
    assert User.objects.get(username="ada").check_password("brand new pw 42")


def test_password_reset_for_unknown_email_says_the_same_and_sends_nothing(client, reset_mail_sent_at_once):
    resp = client.post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert resp.status_code == 302
    assert reset_mail_sent_at_once == [0]
    assert mail.outbox == []


def test_a_reset_request_runs_the_same_queries_whether_or_not_an_account_has_the_address(client, monkeypatch):
    """No timing oracle: the request itself never looks the address up (the
    worker does), so a known and an unknown address cost the request the same."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    monkeypatch.setattr(tasks.send_password_reset, "delay", lambda *args: None)  # queued, not run
    User.objects.create_user("ada", "ada@example.com", GOOD["password1"])
    seen = {}
    for email in ("ada@example.com", "nobody@example.com"):
        with CaptureQueriesContext(connection) as queries:
            resp = client.post(reverse("password_reset"), {"email": email})
        assert resp.status_code == 302 and resp["Location"] == reverse("password_reset_done")
        seen[email] = [q["sql"] for q in queries.captured_queries]
    assert seen["ada@example.com"] == seen["nobody@example.com"]
    assert not any("email" in sql.lower() for sql in seen["ada@example.com"])


def test_profile_page_is_public_and_case_insensitive(client):
    User.objects.create_user("Ada", "ada@example.com", "pw-unused-123")
    resp = client.get("/u/ada/")
    assert resp.status_code == 200
    assert b"Ada" in resp.content
    assert client.get("/u/nobody/").status_code == 404
    assert client.get("/u/%00bad/").status_code == 404


def test_login_accepts_any_case_of_the_username(client):
    User.objects.create_user("Ada", "ada@example.com", GOOD["password1"])
    resp = client.post(reverse("login"), {"username": "ADA", "password": GOOD["password1"]})
    assert resp.status_code == 302
    assert "_auth_user_id" in client.session


def test_a_wrong_password_is_told_in_words_true_of_this_site(client):
    """Usernames match in any case here: the error does not say they may be case-sensitive."""
    User.objects.create_user("Ada", "ada@example.com", GOOD["password1"])
    resp = client.post(reverse("login"), {"username": "ada", "password": GOOD["password1"].upper()})
    text = resp.content.decode()
    assert resp.status_code == 200 and "_auth_user_id" not in client.session
    assert "Capitals count in the password, not in the username." in text
    assert "case-sensitive" not in text
