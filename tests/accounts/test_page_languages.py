"""The account, sign-in, mail-settings and people pages in another language
(docs/i18n.md): each page's main part, rendered for a German reader, shows
German and none of the English texts of our catalogue whose German differs; and the
machine-read values (a date's ``datetime``, a form's field names) stay as
they are in English."""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts import blocks
from notifications import mail
from people import actions as people
from tests.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english_after():
    yield
    translation.deactivate()  # a request's language stays active in this thread after it


@cache
def english_texts(language: str) -> frozenset[str]:
    """The plain English texts (no placeholder, 8 characters or more) our
    catalogue translates differently into ``language``."""
    po = polib.pofile(str(Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES" / "django.po"))
    return frozenset(e.msgid for e in po if not e.msgid_plural and e.msgstr and e.msgstr != e.msgid
                     and "%(" not in e.msgid and len(e.msgid) >= 8)


def visible(page: str, part: str = r"<main\b.*?</main>") -> str:
    """The text and read attribute values of the page's ``part`` (a pattern;
    default ``<main>``: the layout around it is another part's), unescaped."""
    page = "".join(re.findall(f"(?s){part}", page))
    assert page, part
    page = re.sub(r"(?s)<script.*?</script>|<style.*?</style>", "", page)
    said = re.findall(r'(?:aria-label|title|placeholder|alt)="([^"]*)"', page)
    return html.unescape(" ".join([re.sub(r"<[^>]+>", " ", page), *said]))


OWN_PROFILE_PARTS = (r'<section class="follow".*?</section>|<form[^>]*block-player.*?</form>'
                     r'|<p><a href="/password/change/">.*?</p>\s*<p>.*?</p>|<p>Mitglied seit.*?</p>'
                     r'|<p><a href="/account/blocked/">.*?</p>')

PAGES = [
    ("signup", None), ("login", None), ("password_reset", None), ("password_reset_done", None),
    ("password_change", "ann"), ("email_change", "ann"), ("email_sent", "ann"), ("holidays", "ann"),
    ("api_tokens", "ann"), ("become_bot", "ann"), ("close_account", "ann"), ("data_page", "ann"),
    ("blocked_players", "ann"), ("mail_settings", "ann"), ("people_search", "ann"),
    ("people_following", "ann"),
]


def test_the_account_and_people_pages_speak_german_with_no_english_left():
    ann = make_user("ann")
    make_user("bob")
    ann.language = "de"
    ann.save(update_fields=["language"])
    people.follow(ann, "bob")
    blocks.do_block(ann, "bob")
    english = english_texts("de")
    signed_in = Client(HTTP_ACCEPT_LANGUAGE="de")
    signed_in.force_login(ann)
    visitor = Client(HTTP_ACCEPT_LANGUAGE="de")
    pages = [(name, reverse(name), signed_in if who else visitor) for name, who in PAGES] + [
        ("search results", reverse("people_search") + "?q=b", signed_in),
        # A profile's own part: its first lines, following and blocking (the rest is the games').
        ("profile", reverse("profile", args=["bob"]), signed_in, OWN_PROFILE_PARTS),
        ("own profile", reverse("profile", args=["ann"]), signed_in, OWN_PROFILE_PARTS),
        ("followers", reverse("followers", args=["bob"]), signed_in),
        ("unsubscribe", reverse("mail_unsubscribe", args=[mail.unsubscribe_token(ann.pk, "your_turn")]),
         visitor),
    ]
    for name, url, client, *part in pages:
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        assert response.headers["Content-Language"] == "de", name
        text = visible(response.text, *part)
        left = sorted(t for t in english if t in text)
        assert not left, f"{name}: English left: {left}"
    # A few German texts, where the English one was.
    assert "Blockierte Spieler" in signed_in.get(reverse("blocked_players")).text
    assert "Zuletzt benutzt" in signed_in.get(reverse("api_tokens")).text or "Du hast keine Token." in \
        signed_in.get(reverse("api_tokens")).text
    search = signed_in.get(reverse("people_search") + "?q=b").text
    assert "Namen, die mit „b“ beginnen" in search
    own = visible(signed_in.get(reverse("profile", args=["ann"])).text, OWN_PROFILE_PARTS)
    for german in ("Passwort ändern", "Konto schließen", "Mitglied seit", "Blockierte Spieler", "folgt 1"):
        assert german in own, german


def test_machine_read_values_stay_as_in_english():
    """A block's date: its ``datetime`` is the same in German, its text in German."""
    ann = make_user("ann")
    make_user("bob")
    blocks.do_block(ann, "bob")
    pages = {}
    for language in ("en", "de"):
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        client.force_login(ann)
        pages[language] = client.get(reverse("blocked_players")).text
    stamp = r'<time datetime="([^"]+)" data-local="date">([^<]+)</time>'
    (en_when, en_text), (de_when, de_text) = (re.search(stamp, pages[lang]).groups() for lang in ("en", "de"))
    assert en_when == de_when and en_text.split()[0] == de_text.split()[0]  # the day
    assert ">Unblock</button>" in pages["en"] and ">Blockierung aufheben</button>" in pages["de"]
    assert 'name="unblock" value="bob"' in pages["de"]


def test_a_sign_up_with_errors_in_hindi_has_no_english_left():
    """Django's own texts on the page (labels, the password rules, errors) read
    in the site's words too (accounts/django_texts.py): no Latin word left but
    the characters a username may use."""
    response = Client(HTTP_ACCEPT_LANGUAGE="hi").post(reverse("signup"), {
        "username": "a b", "email": "x", "password1": "12345", "password2": "12345"})
    assert response.status_code == 400
    text = visible(response.text)
    assert "पासवर्ड" in text and "यह पासवर्ड बहुत छोटा है। इसमें कम से कम 8 अक्षर होने चाहिए।" in text
    assert "इस पासवर्ड में सिर्फ़ अंक हैं।" in text and "मान्य ईमेल पता लिखें।" in text
    assert not re.findall(r"[A-Za-z]{2,}", text), text
