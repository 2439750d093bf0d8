"""Mail in its recipient's language (docs/i18n.md "E-mail"), received over
real SMTP (aiosmtpd, tests/mail_server.py): a sign-up keeps the language its
form was read in on the new account, and the confirmation mail is written in
it; a password reset mail is in the account's language, else the language of
the reset form's request, else English, and the English one is Django's own
wording, unchanged."""

from __future__ import annotations

import re
from pathlib import Path

import django
import pytest
from django.template import Context, Engine
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts import tasks
from accounts.models import User
from core import ratelimits
from tests.factories import make_user
from tests.mail_server import MailServer

pytestmark = pytest.mark.django_db

PW = "correct horse battery"


@pytest.fixture(autouse=True)
def fresh_limits():
    ratelimits.reset()
    yield
    ratelimits.reset()
    translation.deactivate()  # a request's language stays active in this thread after it


@pytest.fixture
def smtp(settings):
    with MailServer() as server:
        settings.MAILERS = server.mailers
        yield server


@pytest.fixture
def worker(monkeypatch, django_capture_on_commit_callbacks):
    """``with worker():`` sends the address mails the block queued after its
    commit, by the task's own code, as a Celery worker would."""
    monkeypatch.setattr(tasks.send_address_mail, "delay", lambda *args: tasks.send_address_mail.run(*args))
    return lambda: django_capture_on_commit_callbacks(execute=True)


def body(message) -> str:
    return message.get_body(("plain",)).get_content().replace("\r\n", "\n")


def sign_up(client, username):
    return client.post(reverse("signup"), {"username": username, "email": f"{username}@example.com",
                                           "password1": PW, "password2": PW})


def test_a_sign_up_in_german_gets_its_confirmation_mail_in_german(smtp, worker):
    with worker():
        response = sign_up(Client(HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,en;q=0.5"), "ada")
    assert response.status_code == 302
    with worker():  # a browser in a language the site does not speak: English
        sign_up(Client(HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9"), "bea")
    mails = {m["To"]: m for m in smtp.messages}
    ada = mails["ada@example.com"]
    assert ada["Subject"] == "Bestätige deine E-Mail-Adresse bei Parlour"
    text = body(ada)
    assert text.startswith("Hallo ada,\n\nWillkommen bei Parlour! Bitte bestätige, dass ada@example.com "
                           "deine E-Mail-Adresse ist. Öffne diesen Link, um sie zu bestätigen:\n\nhttp"), text
    assert re.search(r"\nDer Link gilt \d+ Tage und nur einmal\. ", text), text
    assert "Hello" not in text and "link works" not in text
    assert mails["bea@example.com"]["Subject"] == "Confirm your e-mail address on Parlour"
    assert body(mails["bea@example.com"]).startswith("Hello bea,\n\nWelcome to Parlour! Please confirm")
    assert dict(User.objects.values_list("username", "language")) == {"ada": "de", "bea": "en"}


def _reset(client, user, reset_mail_sent_at_once) -> None:
    """Ask for ``user``'s reset link from ``client`` (mailed at once)."""
    assert client.post(reverse("password_reset"), {"email": user.email}).status_code == 302
    assert reset_mail_sent_at_once[-1] == 1


def test_a_reset_mail_is_in_the_accounts_language_else_the_forms_and_english_is_djangos_own(
        smtp, reset_mail_sent_at_once):
    hindi, plain, spanish_form = make_user("hira"), make_user("ann"), make_user("eva")
    hindi.language = "hi"
    hindi.save(update_fields=["language"])
    english = Client()  # no Accept-Language: the site's default, English
    spanish = Client(HTTP_ACCEPT_LANGUAGE="es")
    for user, client in ((hindi, english), (plain, english), (spanish_form, spanish)):
        _reset(client, user, reset_mail_sent_at_once)
    mails = {m["To"]: m for m in smtp.messages}

    hira = mails[hindi.email]
    assert hira["Subject"] == "testserver पर पासवर्ड रीसेट"
    text = body(hira)
    assert "आपको यह ईमेल इसलिए मिला है क्योंकि आपने testserver पर अपने खाते का पासवर्ड रीसेट करने को कहा था।" in text
    assert "कृपया नीचे दिए पेज पर जाएँ और नया पासवर्ड चुनें:" in text
    assert "अगर आप भूल गए हों, तो आपका उपयोगकर्ता नाम है: hira" in text
    assert re.search(r"http://testserver/password/reset/\S+/\S+/", text)
    assert not re.search(r"[A-Za-z]{4,}", re.sub(r"http\S+|testserver|hira", "", text)), "no English left"

    assert mails[spanish_form.email]["Subject"] == "Restablecer la contraseña en testserver"

    # English: exactly what Django's own templates say (our copies only make them translatable).
    ann = mails[plain.email]
    assert ann["Subject"] == "Password reset on testserver"
    link = re.search(r"http://testserver(/password/reset/(\S+)/(\S+)/)", body(ann))
    django_templates = Path(django.__file__).parent / "contrib" / "admin" / "templates"
    djangos = Engine(dirs=[str(django_templates)], libraries={"i18n": "django.templatetags.i18n"}
                     ).get_template("registration/password_reset_email.html")
    with translation.override("en"):
        expected = djangos.render(Context({"site_name": "testserver", "protocol": "http",
                                           "domain": "testserver", "uid": link.group(2),
                                           "token": link.group(3), "user": plain}))
    assert body(ann) == expected
