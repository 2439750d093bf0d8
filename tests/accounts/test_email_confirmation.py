"""Verified e-mail and no oracle (docs/features.md "Confirming your e-mail"):
the link mailed over real SMTP (aiosmtpd, tests/mail_server.py) by the
Celery task's own code after the commit; it confirms once; forged, expired,
used and replaced links change nothing; the first account to confirm an
address keeps it; an unconfirmed account plays the computer and in rooms
but not ranked, arenas or challenges; sign-up and e-mail change answer the
same for a taken address and a free one, and the mail to the address says
which; mail goes to confirmed addresses only."""

from __future__ import annotations

import re
import time
from datetime import date, timedelta

import pytest
from django.apps import apps
from django.core import mail as django_mail
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from accounts import confirmation, tasks
from accounts.models import Holiday, User
from arenas import actions as arena_actions
from arenas.models import Arena, ArenaPlayer
from core import ratelimits
from core.errors import Refused
from games.actions import start_computer_match
from matchmaking.challenges import actions as challenges
from matchmaking.models import Challenge, QueueEntry, TurnBasedEntry
from matchmaking.queue import actions as queue_actions
from matchmaking.queue import turn_based
from matchmaking.rooms import actions as rooms
from notifications import mail as player_mail
from tests.factories import make_user
from tests.mail_server import MailServer

pytestmark = pytest.mark.django_db

PW = "correct horse battery"
PASS = "a sturdy pass 42"  # make_user's
_migration = __import__("accounts.migrations.0008_email_confirmed", fromlist=["confirm_everyone"])


@pytest.fixture(autouse=True)
def fresh_limits():
    ratelimits.reset()
    yield
    ratelimits.reset()


@pytest.fixture
def smtp(settings):
    with MailServer() as server:
        settings.MAILERS = server.mailers
        yield server


@pytest.fixture
def worker(monkeypatch, django_capture_on_commit_callbacks):
    """``with worker():`` runs the block; the address mails it queued are
    sent after its commit by the task's own code, as a Celery worker would.
    ``worker.outcomes``: what each returned."""
    outcomes = []
    monkeypatch.setattr(tasks.send_address_mail, "delay",
                        lambda *args: outcomes.append(tasks.send_address_mail.run(*args)))

    class Run:
        def __call__(self):
            return django_capture_on_commit_callbacks(execute=True)

    run = Run()
    run.outcomes = outcomes
    return run


def sign_up(client, username, email, **extra):
    return client.post(reverse("signup"), {"username": username, "email": email, "password1": PW,
                                           "password2": PW, **extra})


def without_csrf(html: str) -> str:
    """A page without its CSRF token (a form's hidden field, the htmx header)."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    return re.sub(r'"X-CSRFToken": "[^"]+"', "", html)


def body(message) -> str:
    return message.get_body(("plain",)).get_content().replace("\r\n", "\n")


def link_in(message) -> str:
    found = re.search(r"https?://\S+/account/email/confirm/(\S+)/", body(message))
    assert found, body(message)
    return reverse("email_confirm", args=[found.group(1)])


def unconfirmed(username, email=None) -> User:
    """The account ``username`` (made if new), its address not confirmed."""
    user = User.objects.filter(username=username).first() or make_user(username)
    User.objects.filter(pk=user.pk).update(email=email or user.email, email_confirmed=False)
    user.refresh_from_db()
    return user


def test_sign_up_mails_a_link_that_confirms_the_address_once(smtp, worker):
    client = Client()
    with worker():
        response = sign_up(client, "ada", "Ada@Example.com")
    assert response.status_code == 302 and response["Location"] == reverse("email_sent")
    assert worker.outcomes == ["sent"]
    [message] = smtp.messages
    assert message["To"] == "Ada@example.com"
    assert message["Subject"] == "Confirm your e-mail address on Parlour"
    ada = User.objects.get(username="ada")
    assert not ada.email_confirmed
    link = link_in(message)
    # Anyone with the link (a phone's mail app, no session) sees what it
    # confirms; a GET (a mail scanner opening links) changes nothing.
    page = Client().get(link)
    assert page.status_code == 200 and "Ada@example.com" in page.text and ">Confirm</button>" in page.text
    ada.refresh_from_db()
    assert not ada.email_confirmed
    done = Client().post(link)
    assert done.status_code == 200 and "is confirmed for the account <strong>ada</strong>" in done.text
    ada.refresh_from_db()
    assert ada.email_confirmed and ada.email == "Ada@example.com"
    # Used: a clear page, nothing changed.
    again = Client().post(link)
    assert again.status_code == 400 and "this link has been used" in again.text
    assert "Nothing was changed." in again.text


def test_a_taken_address_and_a_free_one_get_the_same_answer_and_the_address_is_told(smtp, worker):
    """The same sign-up twice, once while another account has the address
    confirmed and once while none has: the same status, location, page
    (apart from the CSRF token) and the same queries; the mail differs."""
    owner = make_user("owner")
    User.objects.filter(pk=owner.pk).update(email="kim@example.com")
    answers = []
    for taken in (True, False):
        if not taken:
            User.objects.filter(pk=owner.pk).update(email="owner@example.com")
            User.objects.filter(username="kim").delete()
        client = Client()
        queries = []  # (a request clears connection.queries: count them as they run)

        def count(run, sql, *args, queries=queries):
            queries.append(sql)
            return run(sql, *args)

        with worker(), connection.execute_wrapper(count):
            response = sign_up(client, "kim", "kim@example.com")
        page = client.get(response["Location"])
        answers.append((response.status_code, response["Location"], page.status_code,
                        without_csrf(page.text), len(queries)))
    assert answers[0] == answers[1]
    assert answers[0][:3] == (302, reverse("email_sent"), 200) and answers[0][4] > 5
    assert worker.outcomes == ["taken", "sent"]
    told, linked = smtp.messages
    assert told["To"] == linked["To"] == "kim@example.com"
    assert told["Subject"] == "Someone tried to use your address on Parlour"
    assert "Someone tried to sign up to Parlour with your address" in body(told)
    assert reverse("password_reset") in body(told) and "/account/email/confirm/" not in body(told)
    assert "/account/email/confirm/" in body(linked)


def test_the_first_account_to_confirm_an_address_keeps_it(smtp, worker):
    """Two sign-ups with one address both get a link; the second click fails clearly."""
    with worker():
        sign_up(Client(), "first", "shared@example.com")
        sign_up(Client(), "second", "shared@example.com")
    assert worker.outcomes == ["sent", "sent"]
    first_link, second_link = (link_in(m) for m in smtp.messages)
    assert Client().post(second_link).status_code == 200
    shown = Client().get(first_link)  # the page says so at once, with no button that would fail
    assert shown.status_code == 400 and "Another account confirmed shared@example.com first" in shown.text
    assert "<button" not in shown.text.split("<main", 1)[-1].split("</main>", 1)[0]
    refused = Client().post(first_link)
    assert refused.status_code == 400 and "Another account confirmed shared@example.com first" in refused.text
    assert list(User.objects.filter(email="shared@example.com").order_by("username")
                .values_list("username", "email_confirmed")) == [("first", False), ("second", True)]
    # Now taken: a new link for "first" is no link, but "someone tried".
    with worker():
        tasks.queue_address_mail(User.objects.get(username="first"))
    assert worker.outcomes[-1] == "taken"


def test_two_confirmations_at_once_are_settled_by_the_index(monkeypatch):
    """The check for another confirmed holder missed (the other confirmed
    in the same instant): the partial unique index refuses, and the link
    says so clearly; nothing changed."""
    make_user("quick")  # quick@example.com, confirmed
    slow = unconfirmed("slow", "QUICK@example.com")
    monkeypatch.setattr(confirmation, "taken_by_another", lambda address, user_id: False)
    refused = Client().post(reverse("email_confirm", args=[confirmation.token(slow.pk, slow.email)]))
    assert refused.status_code == 400 and "Another account confirmed QUICK@example.com first" in refused.text
    slow.refresh_from_db()
    assert not slow.email_confirmed


def _expired_token(user):
    past = time.time() - timedelta(days=4).total_seconds()
    real = signing.time.time
    signing.time.time = lambda: past
    try:
        return confirmation.token(user.pk, user.email)
    finally:
        signing.time.time = real


@pytest.mark.parametrize(("how", "says"), [
    ("forged", "not one Parlour made"),
    ("cut", "not one Parlour made"),
    ("expired", "more than 3 days old"),
    ("replaced", "address changed after it was sent"),
    ("gone", "no longer exists"),
])
def test_a_bad_link_says_why_and_changes_nothing(how, says):
    user = unconfirmed("lee")
    value = confirmation.token(user.pk, user.email)
    if how == "forged":
        value = signing.dumps({"u": user.pk, "e": user.email}, salt="something else", compress=False)
    elif how == "cut":
        value = value[:-3]
    elif how == "expired":
        value = _expired_token(user)
    elif how == "replaced":
        User.objects.filter(pk=user.pk).update(email="lee.new@example.com")
    elif how == "gone":
        User.objects.filter(pk=user.pk).update(is_active=False)
    before = list(User.objects.values_list("pk", "email", "email_confirmed", "pending_email"))
    for response in (Client().get(reverse("email_confirm", args=[value])),
                     Client().post(reverse("email_confirm", args=[value]))):
        assert response.status_code == 400 and says in response.text
        assert "Nothing was changed." in response.text
    assert list(User.objects.values_list("pk", "email", "email_confirmed", "pending_email")) == before


def test_changing_the_address_needs_the_password_and_waits_for_the_new_link(smtp, worker):
    ada = make_user("ada")  # confirmed: ada@example.com
    client = Client()
    client.force_login(ada)
    page = client.get(reverse("email_change"))
    assert page.status_code == 200 and "ada@example.com</strong>, confirmed" in page.text
    wrong = client.post(reverse("email_change"), {"email": "ada@new.example", "password": "not it"})
    assert wrong.status_code == 400 and "That is not your password." in wrong.text
    ada.refresh_from_db()
    assert ada.pending_email == "" and not smtp.messages
    with worker():
        moved = client.post(reverse("email_change"), {"email": "ada@new.example", "password": PASS})
    assert moved.status_code == 302
    ada.refresh_from_db()
    assert (ada.email, ada.email_confirmed, ada.pending_email) == ("ada@example.com", True, "ada@new.example")
    [message] = smtp.messages
    assert message["To"] == "ada@new.example" and "You asked for ada@new.example" in body(message)
    assert Client().post(link_in(message)).status_code == 200
    ada.refresh_from_db()
    assert (ada.email, ada.email_confirmed, ada.pending_email) == ("ada@new.example", True, "")


def test_a_change_to_a_taken_address_answers_the_same_and_tells_the_address(smtp, worker):
    make_user("bea")  # bea@example.com, confirmed
    ada = make_user("ada")
    client = Client()
    client.force_login(ada)
    pages = []
    for address in ("bea@example.com", "free@example.com"):
        with worker():
            response = client.post(reverse("email_change"), {"email": address, "password": PASS},
                                   follow=True)
        pages.append((response.status_code, response.redirect_chain,
                      without_csrf(response.text).replace(address, "X")))
    assert pages[0] == pages[1]
    assert worker.outcomes == ["taken", "sent"]
    assert "Someone tried to move a Parlour account to your address" in body(smtp.messages[0])


def test_every_change_and_resend_counts_against_the_account_limit(worker):
    ada = make_user("ada")
    client = Client()
    client.force_login(ada)
    with override_settings(PARLOUR_EMAIL_CHANGE_RATE="3/hour"), worker():
        assert client.post(reverse("email_change"), {"email": "x@", "password": "no"}).status_code == 400
        assert client.post(reverse("email_change"), {"resend": "1"}).status_code == 302
        assert client.post(reverse("email_change"), {"email": "a@b.example",
                                                     "password": PASS}).status_code == 302
        refused = client.post(reverse("email_change"), {"email": "c@d.example", "password": PASS})
    assert refused.status_code == 429
    ada.refresh_from_db()
    assert ada.pending_email == "a@b.example"


def test_mails_to_one_address_stop_at_the_address_limit_whoever_asks(smtp, worker):
    with override_settings(PARLOUR_ADDRESS_MAIL_RATE="2/hour"), worker():
        for n in range(3):
            sign_up(Client(), f"flood{n}", "victim@example.com")
    assert worker.outcomes == ["sent", "sent", "skipped"] and len(smtp.messages) == 2


def test_an_unconfirmed_account_plays_the_computer_and_rooms_but_not_ranked_arenas_or_challenges():
    other = make_user("other")
    challenge = challenges.do_challenge(other, make_user("newbie").username, "ludo", 30)  # to accept below
    new = unconfirmed("newbie")
    assert start_computer_match(new, "ludo", ["easy"]).pk
    room = rooms.do_create_room(new, "ludo", 2, {1: "easy"})
    assert rooms.do_start_room(room.code, new).pk
    arena = Arena.objects.create(name="Evening", kind="ludo", seats=2, minutes=60,
                                 starts_at=timezone.now() + timedelta(hours=1))
    refusals = {
        "live queue": lambda: queue_actions.join_queue(new, "ludo", 2),
        "turn-based queue": lambda: turn_based.join_turn_based(new, "ludo", 2, 1),
        "arena": lambda: arena_actions.join(new, arena.pk),
        "challenge": lambda: challenges.do_challenge(new, "other", "ludo", 30),
        "accept": lambda: challenges.do_answer(challenge.pk, new, True),
    }
    for what, attempt in refusals.items():
        with pytest.raises(Refused) as refused:
            attempt()
        assert refused.value.code == "unconfirmed-email", what
        assert "Confirm your e-mail address first" in refused.value.message
        assert "e-mail page" in refused.value.message and "/" not in refused.value.message  # words, no path
    assert not QueueEntry.objects.filter(user=new).exists()
    assert not TurnBasedEntry.objects.filter(user=new).exists()
    assert not ArenaPlayer.objects.filter(user=new).exists()
    assert Challenge.objects.get().status == Challenge.Status.OPEN and Challenge.objects.count() == 1


def test_the_refusal_reaches_the_page_with_the_resend_link():
    new = unconfirmed("newbie")
    client = Client()
    client.force_login(new)
    page = client.post(reverse("queue_join"), {"kind": "ludo", "players": "2"}, follow=True)
    assert "Confirm your e-mail address first" in page.text
    assert f'href="{reverse("email_change")}">Send it again or change the address</a>' in page.text


def test_a_challenge_to_an_unconfirmed_account_is_refused_as_not_taking_challenges():
    make_user("ann")
    unconfirmed("newbie")
    with pytest.raises(Refused) as refused:
        challenges.do_challenge(User.objects.get(username="ann"), "newbie", "ludo", 30)
    assert "newbie" in refused.value.message


def test_password_resets_and_player_mail_go_to_confirmed_addresses_only(settings):
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
    new = unconfirmed("newbie")
    confirmed = make_user("sure")
    for address in (new.email, confirmed.email):
        response = Client().post(reverse("password_reset"), {"email": address})
        assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert [m.to for m in django_mail.outbox] == [[confirmed.email]]
    assert player_mail.mailable_users("your_turn", [new.pk, confirmed.pk]) == [confirmed.pk]
    now = timezone.now()
    holidays = [Holiday.objects.create(user=u, starts_on=date(2030, 1, 1), ends_on=date(2030, 1, 2),
                                       starts_at=now, ends_at=now) for u in (new, confirmed)]
    assert list(Holiday.objects.filter(player_mail.mailable("your_turn")).values_list("user", flat=True)) == [
        holidays[1].user_id]
    assert player_mail.deliver(new.pk, "your_turn", "s", "notifications/mail/your_turn.txt", {}) == "skipped"


def test_accounts_made_by_createsuperuser_the_admin_and_the_factories_are_confirmed(admin_client):
    assert make_user("made").email_confirmed
    call_command("createsuperuser", "--noinput", "--username", "boss", "--email", "boss@example.com")
    assert User.objects.get(username="boss").email_confirmed
    form = admin_client.get(reverse("admin:accounts_user_add")).text
    management = dict(re.findall(r'<input type="hidden" name="([^"]+-(?:TOTAL|INITIAL|MIN_NUM|MAX_NUM)'
                                 r'_FORMS)"'
                                 r'[^>]*value="(\d*)"', form))
    response = admin_client.post(reverse("admin:accounts_user_add"), {
        **management, "username": "byhand", "password1": PW, "password2": PW, "usable_password": "true"})
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert User.objects.get(username="byhand").email_confirmed


def test_the_data_migration_marks_every_existing_account_confirmed():
    unconfirmed("old1")
    unconfirmed("old2")
    _migration.confirm_everyone(apps, None)
    assert not User.objects.filter(email_confirmed=False).exists()


def test_a_form_that_would_give_a_confirmed_address_twice_says_so():
    """The admin's forms validate the model's constraints: a moderator who
    types another account's confirmed address gets a message, not a 500;
    an unconfirmed second holder is fine."""
    make_user("kept")  # kept@example.com, confirmed
    with pytest.raises(ValidationError) as refused:
        User(username="twin", email="KEPT@example.com").validate_constraints()
    assert "Another account has this e-mail address, confirmed." in str(refused.value)
    User(username="twin", email="KEPT@example.com", email_confirmed=False).validate_constraints()
