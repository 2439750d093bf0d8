"""Sign-up and password-reset limits (README "Decisions"), with the real
rates and the real Redis counts (core.ratelimits): past a limit the page
answers 429 and says so, and no account is created and no email sent."""

import pytest
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse

from accounts.models import User
from core import ratelimits

pytestmark = pytest.mark.django_db

REAL = {"PARLOUR_SIGNUP_RATE": "10/hour", "PARLOUR_SIGNUP_FAILED_RATE": "50/hour",
        "PARLOUR_PASSWORD_RESET_RATE": "10/hour", "PARLOUR_PASSWORD_RESET_EMAIL_RATE": "3/hour"}


@pytest.fixture(autouse=True)
def real_limits():
    ratelimits.reset()
    with override_settings(**REAL):
        yield
    ratelimits.reset()


def sign_up(client, n):
    pw = "correct horse battery"
    return client.post(reverse("signup"), {"username": f"bot{n}", "email": f"bot{n}@example.com",
                                           "password1": pw, "password2": pw})


def test_sign_ups_from_one_address_stop_at_the_limit_and_create_nothing_more():
    script = Client(REMOTE_ADDR="203.0.113.20")
    for n in range(10):
        assert sign_up(script, n).status_code == 302
        script.logout()
    assert script.post(reverse("signup"), {"username": "typo"}).status_code == 400  # a bad form is no sign-up
    refused = sign_up(script, 10)
    assert refused.status_code == 429
    assert "Too many attempts" in refused.content.decode() and "nothing was done" in refused.content.decode()
    assert not User.objects.filter(username="bot10").exists()
    assert User.objects.filter(username__startswith="bot").count() == 10
    assert sign_up(Client(REMOTE_ADDR="198.51.100.20"), 11).status_code == 302  # another address may


def test_the_real_rates_are_the_defaults():
    import config.settings as defaults  # the project's settings, before the tests' own

    assert {name: getattr(defaults, name) for name in REAL} == REAL


def test_the_failed_sign_up_budget_is_larger_than_the_sign_up_limit():
    from limits import parse

    failed, signups = parse(REAL["PARLOUR_SIGNUP_FAILED_RATE"]), parse(REAL["PARLOUR_SIGNUP_RATE"])
    assert failed.get_expiry() == signups.get_expiry() and failed.amount > signups.amount


def probe(client, email):
    """A sign-up as "newcomer" (a failure once that name is taken, or for a bad email)."""
    pw = "correct horse battery"
    return client.post(reverse("signup"), {"username": "newcomer", "email": email,
                                           "password1": pw, "password2": pw})


def test_failed_sign_ups_from_one_address_stop_at_their_own_budget():
    """Every failed sign-up (a bad email, a taken username: a taken email is
    no failure at all) is counted per client address; past the budget
    nothing is checked and nothing created, from that address only."""
    User.objects.create_user("newcomer", "ada@example.com", "a sturdy pass 42")
    script = Client(REMOTE_ADDR="203.0.113.40")
    for n in range(50):
        assert probe(script, "ada@example.com" if n % 2 else f"nobody{n}@").status_code == 400
    refused = probe(script, "ada@example.com")
    assert refused.status_code == 429 and "taken" not in refused.content.decode()
    assert "sign-up attempts" in refused.content.decode()
    # A form that would create an account is not checked either: nothing is created.
    assert sign_up(script, 1).status_code == 429
    assert not User.objects.filter(username="bot1").exists()
    # Another address still gets its answer.
    assert probe(Client(REMOTE_ADDR="198.51.100.40"), "ada@example.com").status_code == 400


def test_typos_on_a_shared_address_leave_its_sign_ups_alone():
    """A school's address: a few typos per sign-up, up to the sign-up limit."""
    school = Client(REMOTE_ADDR="203.0.113.50")
    for n in range(10):
        for _ in range(4):
            assert school.post(reverse("signup"), {"username": f"pupil{n}"}).status_code == 400
        assert sign_up(school, n).status_code == 302
        school.logout()
    assert User.objects.filter(username__startswith="bot").count() == 10


def test_sign_ups_refused_by_the_sign_up_limit_count_as_failed():
    """Past the sign-up limit a good form is refused, which would tell that
    no account has its email: each refusal spends the failed budget too."""
    script = Client(REMOTE_ADDR="203.0.113.60")
    for n in range(10):
        assert sign_up(script, n).status_code == 302
        script.logout()
    for n in range(10, 60):
        assert sign_up(script, n).status_code == 429
    assert probe(script, "bot0@example.com").status_code == 429  # no answer about bot0's email
    assert User.objects.filter(username__startswith="bot").count() == 10


def test_reset_emails_to_one_address_stop_at_the_limit_from_anywhere():
    User.objects.create_user("ada", "ada@example.com", "a sturdy pass 42")
    for n in range(3):
        elsewhere = Client(REMOTE_ADDR=f"203.0.113.{n + 1}")
        assert elsewhere.post(reverse("password_reset"), {"email": "ADA@example.com"}).status_code == 302
    assert len(mail.outbox) == 3
    refused = Client(REMOTE_ADDR="203.0.113.9").post(reverse("password_reset"), {"email": "ada@example.com"})
    assert refused.status_code == 429 and "password reset emails" in refused.content.decode()
    assert len(mail.outbox) == 3  # nothing more sent


def test_reset_requests_from_one_address_stop_at_the_limit():
    User.objects.create_user("ada", "ada@example.com", "a sturdy pass 42")
    script = Client(REMOTE_ADDR="203.0.113.30")
    for n in range(10):
        assert script.post(reverse("password_reset"), {"email": f"someone{n}@example.com"}).status_code == 302
    refused = script.post(reverse("password_reset"), {"email": "ada@example.com"})
    assert refused.status_code == 429
    assert mail.outbox == []
    assert Client(REMOTE_ADDR="198.51.100.30").post(
        reverse("password_reset"), {"email": "ada@example.com"}).status_code == 302
    assert len(mail.outbox) == 1
