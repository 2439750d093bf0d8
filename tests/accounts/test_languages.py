"""Choosing a language (docs/i18n.md "Choosing a language"): the browser's
Accept-Language on a first visit, the menu on every page, the choice kept on
the account (wherever its owner signs in) and in a cookie for a visitor; URLs
stay the same; a language the site lacks changes nothing."""

import pytest
from django.conf import settings

from accounts.models import User
from tests.factories import make_user

pytestmark = pytest.mark.django_db

MENU = 'action="/language/"'


def test_a_first_visit_reads_the_browsers_language_and_offers_every_language(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,en;q=0.5")
    html = response.content.decode()
    assert response["Content-Language"] == "de"
    assert '<html lang="de" dir="ltr">' in html
    assert MENU in html
    for code, _name in settings.LANGUAGES:
        assert f'name="language" value="{code}" lang="{code}"' in html


def test_a_browser_asking_for_a_language_the_site_lacks_gets_english(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
    assert response["Content-Language"] == "en"
    assert '<html lang="en" dir="ltr">' in response.content.decode()


def test_arabic_pages_are_right_to_left(client):
    html = client.get("/about/", HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert '<html lang="ar" dir="rtl">' in html


def test_a_visitors_choice_is_kept_in_a_cookie_and_the_url_stays_the_same(client):
    response = client.post("/language/", {"language": "hi", "next": "/leaderboard/?game=ludo"},
                           HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302 and response["Location"] == "/leaderboard/?game=ludo"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "hi"
    # The cookie beats the browser's Accept-Language from then on.
    again = client.get("/leaderboard/?game=ludo", HTTP_ACCEPT_LANGUAGE="en")
    assert again["Content-Language"] == "hi"


def test_a_signed_in_choice_is_kept_on_the_account_and_follows_its_owner(client):
    me = make_user()
    client.force_login(me)
    client.post("/language/", {"language": "es", "next": "/play/"})
    assert User.objects.get(pk=me.pk).language == "es"
    # Another browser, no cookie, asking for English: the account's language wins.
    other = client.__class__()
    other.force_login(me)
    response = other.get("/play/", HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Language"] == "es"
    assert '<html lang="es"' in response.content.decode()


@pytest.mark.parametrize("language", ["fr", "", "en-us'><script>", "x" * 500])
def test_a_language_the_site_lacks_is_refused_and_changes_nothing(client, language):
    me = make_user()
    client.force_login(me)
    response = client.post("/language/", {"language": language, "next": "/play/"})
    assert response.status_code == 400
    assert "no such language" in response.content.decode()
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
    assert User.objects.get(pk=me.pk).language == ""


def test_without_next_the_menu_returns_to_the_page_it_was_on(client):
    response = client.post("/language/", {"language": "es"},
                           HTTP_REFERER="http://testserver/leaderboard/?game=rondo")
    assert response.status_code == 302 and response["Location"] == "http://testserver/leaderboard/?game=rondo"
    foreign = client.post("/language/", {"language": "es"}, HTTP_REFERER="https://evil.example/x")
    assert foreign["Location"] == "/"


def test_next_on_another_site_goes_home_instead(client):
    response = client.post("/language/", {"language": "de", "next": "https://evil.example/"})
    assert response.status_code == 302 and response["Location"] == "/"


def test_the_menu_only_takes_a_post(client):
    assert client.get("/language/?language=de").status_code == 405
