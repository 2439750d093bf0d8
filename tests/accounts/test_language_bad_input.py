"""Bad input to the language machinery (docs/i18n.md "Choosing a language"): a
forged language in the menu's POST, a ``next`` that leads off the site, an
Accept-Language header that is huge, malformed, weighted or names languages the
site lacks. Each gets a sane answer (a 400 that says why, a redirect home, the
best language the site has), never a 500, and a refused choice changes nothing."""

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from accounts.models import User
from tests.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_after():
    """The test client runs the view in this thread, and LocaleMiddleware's
    activation outlives the request: later tests of this process would read
    the last request's language."""
    yield
    translation.deactivate()

PAGES = ["/", "/play/", "/rules/ludo/", "/signup/"]


@pytest.mark.parametrize("forged", [
    "DE", "de-DE", "de ", " de", "de\x00", "ar;", "zh-hans", "en-gb", "hi\u0301", "../de",
    "x" * 100_000, "de,ar",
])
def test_a_forged_language_is_refused_and_changes_nothing(client, forged):
    me = make_user()
    client.force_login(me)
    response = client.post("/language/", {"language": forged, "next": "/play/"})
    assert response.status_code == 400
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
    assert User.objects.get(pk=me.pk).language == ""


def test_two_languages_in_one_post_take_the_last_only_when_it_is_the_sites(client):
    # A form posts one language; a forged one posting two gets what QueryDict.get gives.
    response = client.post("/language/", "language=de&language=xx&next=/play/",
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies


def test_a_post_without_its_csrf_token_is_refused():
    client = Client(enforce_csrf_checks=True)
    response = client.post("/language/", {"language": "de", "next": "/"}, HTTP_ACCEPT_LANGUAGE="ar")
    assert response.status_code == 403
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies


@pytest.mark.parametrize("elsewhere", [
    "https://evil.example/", "//evil.example/", "/\\evil.example/", "\\\\evil.example", "http:evil.example",
    "javascript:alert(1)", "http://testserver@evil.example/",
    " https://evil.example/", "\x00/play/", "data:text/html,hi", "/" + "x" * 5000,
])
def test_next_off_the_site_or_malformed_goes_home_instead(client, elsewhere):
    response = client.post("/language/", {"language": "de", "next": elsewhere})
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"


def test_a_next_with_a_header_in_it_stays_one_location_on_the_site(client):
    response = client.post("/language/", {"language": "es", "next": "/play/\r\nSet-Cookie: x=1"})
    assert response.status_code == 302
    assert response["Location"] == "/play/%0D%0ASet-Cookie:%20x=1"  # encoded: a path that is no page
    assert "x" not in response.cookies


@pytest.mark.parametrize(("header", "language"), [
    # Weights decide, whatever the order; tags the site lacks are passed over.
    ("xx-YY;q=1, zz;q=0.95, ar;q=0.5, de;q=0.8", "de"),
    ("fr-CA,fr;q=0.9,es-419;q=0.8,en;q=0.7", "es"),
    ("hi-Latn-IN;q=0.9, en;q=0.1", "hi"),
    ("de-CH-1901, ar-EG;q=0.2", "de"),
    # "*" (any language) before the site's tag: any is the site's own, English.
    ("*;q=0.5, ar;q=0.1", "en"),
    ("*", "en"),
    # Malformed weights and tags: never an error, English at worst.
    ("de;q=abc", "en"),
    ("de;q=2, ar", "en"),  # an impossible weight: Django reads no header at all
    ("de;q=-1", "en"),
    ("ar;q=0", None),  # "not Arabic": Django still picks Arabic (a quirk of its parser), no error
    (";;;,,,;q=", "en"),
    ("q=0.9", "en"),
    ("de;;q=0.9", "en"),
    ("es;q=0.5;q=0.9", "en"),
    ("ह, ع", "en"),
    ("de" + "-x" * 300, "en"),
    ("", "en"),
])
def test_accept_language_with_weights_and_unknown_tags(client, header, language):
    for path in PAGES:
        response = client.get(path, HTTP_ACCEPT_LANGUAGE=header)
        assert response.status_code == 200, (path, response.status_code)
        got = response["Content-Language"]
        assert got == language if language else got in dict(settings.LANGUAGES), (path, header, got)
        assert f'<html lang="{got}"' in response.content.decode()


@pytest.mark.parametrize("header", [
    "de," + ",".join(f"x{n:04}" for n in range(20_000)),  # 100 kB of tags after the first
    ",".join(f"x{n:04};q=0.{n % 9 + 1}" for n in range(20_000)) + ",ar",  # the site's tag only past the cap
    "a" * 100_000,
    "de;q=0." + "9" * 100_000,
])
def test_a_huge_accept_language_is_answered_quickly_and_sanely(client, header):
    import time

    for path in PAGES:
        started = time.monotonic()
        response = client.get(path, HTTP_ACCEPT_LANGUAGE=header)
        assert response.status_code == 200, (path, response.status_code)
        assert response["Content-Language"] in ("de", "en"), response["Content-Language"]
        # A bound, not a measure: a parser that read 100 kB of tags quadratically would take minutes.
        assert time.monotonic() - started < 10


def test_a_cookie_naming_a_language_the_site_lacks_is_passed_over(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "xx<script>"
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="ar")
    assert response.status_code == 200 and response["Content-Language"] == "ar"
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "x" * 4000
    response = client.get("/play/", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 200 and response["Content-Language"] == "es"


def test_an_account_whose_stored_language_the_site_lacks_reads_the_browsers(client):
    # A language dropped from LANGUAGES after someone chose it: the account's
    # word is passed over, never an error.
    me = make_user()
    User.objects.filter(pk=me.pk).update(language="fr")
    client.force_login(me)
    response = client.get("/play/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200 and response["Content-Language"] == "de"


@pytest.mark.parametrize(("referer", "location"), [
    ("https://evil.example/play/", "/"),
    ("//evil.example/", "/"),
    ("javascript:alert(1)", "/"),
    ("http://testserver/rules/ludo/", "http://testserver/rules/ludo/"),  # the page the menu was on
    ("x" * 10_000, "/"),
])
def test_without_next_the_menu_goes_back_to_a_referer_on_this_site_only(client, referer, location):
    response = client.post("/language/", {"language": "hi"}, HTTP_REFERER=referer)
    assert response.status_code == 302 and response["Location"] == location
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "hi"
