"""The scripts' catalogue, /jsi18n/ (core/script_catalogue.py, docs/i18n.md "Scripts"):
the page names it per release and language, it serves that language's djangojs strings
(locale/ and the game folders'), only those, and a browser keeps it for the release."""

import gzip
import json
import re

import polib
import pytest
from django.conf import settings
from django.core.cache import cache

from core import script_catalogue
from tests.factories import make_match

pytestmark = pytest.mark.django_db


def catalogue_of(body: str) -> dict:
    """The strings a catalogue script defines (Django renders them as one JSON object)."""
    match = re.search(r"const newcatalog = (\{.*?\n\s*\});", body, re.S)
    return json.loads(match.group(1)) if match else {}


def test_the_page_names_the_catalogue_of_its_language_before_its_scripts(client):
    body = client.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    src = f"/jsi18n/?v={script_catalogue.version()}&amp;l=de"
    assert f'<script src="{src}" defer></script>' in body
    # The first script of the page: the modules call its gettext as they start.
    assert body[body.index("<script src="):].startswith(f'<script src="{src}"')
    # English is the scripts' own language: no request for an empty catalogue.
    english = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "/jsi18n/" not in english


def test_german_catalogue_holds_our_strings_only_and_is_kept_for_the_release(client):
    cache.clear()
    url = script_catalogue.url("de")
    resp = client.get(url)
    assert resp.status_code == 200 and resp["Content-Type"].startswith("text/javascript")
    strings = catalogue_of(resp.content.decode())
    assert strings["Reconnecting…"] == "Verbinde neu…"  # locale/de
    assert strings["rondo colour\x04purple"] == "Lila"  # games/rondo/locale/de
    assert strings["%(days)s day"] == ["%(days)s Tag", "%(days)s Tage"]
    # Only the djangojs catalogues of locale/ and the game folders: nothing of Django's own.
    ours = set()
    for po in [*settings.BASE_DIR.glob("locale/de/LC_MESSAGES/djangojs.po"),
               *settings.BASE_DIR.glob("games/*/locale/de/LC_MESSAGES/djangojs.po")]:
        ours |= {(f"{e.msgctxt}\x04" if e.msgctxt else "") + e.msgid
                 for e in polib.pofile(str(po)) if e.msgstr or e.msgstr_plural}
    assert set(strings) == ours
    # Cached for a year, unchanged within a release; the URL alone decides the language.
    control = {part.strip() for part in resp["Cache-Control"].split(",")}
    assert {"max-age=31536000", "public", "immutable"} <= control
    assert "Accept-Language" in resp["Vary"]
    again = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert again.content == resp.content
    # Compressed for a browser that accepts it: a few kB.
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content) == resp.content and len(packed.content) < 4000


def test_the_url_names_the_language_and_anything_else_is_not_kept(client):
    version = script_catalogue.version()
    spanish = client.get(f"/jsi18n/?v={version}&l=es", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    spanish = catalogue_of(spanish)
    assert spanish["Reconnecting…"] == "Reconectando…"
    assert catalogue_of(client.get(script_catalogue.url("en")).content.decode()) == {}
    # No version, an old one, or an unknown language: the request's language, never kept.
    for url in ("/jsi18n/", "/jsi18n/?v=old&l=de", f"/jsi18n/?v={version}&l=xx"):
        resp = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
        assert catalogue_of(resp.content.decode())["Reconnecting…"] == "Verbinde neu…"
        assert "no-cache" in resp["Cache-Control"] and "immutable" not in resp["Cache-Control"]


#: The words a script writes where the server wrote them first (the turn-based clock,
#: static/js/clock_words.js = games/clock_words.py; a row's time left, notify.js =
#: games/your_matches.py): a count-down must never change them.
SHARED = ["%(days)s day", "%(days)s %(hours)s h", "%(hours)s h %(minutes)s min", "%(hours)s h",
          "%(minutes)s min", "%(seconds)s s", "%(seconds)s s left", "%(time)s left"]


@pytest.mark.parametrize("language", ["hi", "es", "de", "ar"])
def test_the_scripts_clock_words_are_the_servers(language):
    folder = settings.BASE_DIR / "locale" / language / "LC_MESSAGES"
    script = {e.msgid: e.msgstr or e.msgstr_plural for e in polib.pofile(str(folder / "djangojs.po"))}
    assert set(SHARED) <= set(script)
    server = polib.pofile(str(folder / "django.po")) if (folder / "django.po").exists() else []
    for entry in server:
        if entry.msgid in SHARED and (entry.msgstr or entry.msgstr_plural):
            assert script[entry.msgid] == (entry.msgstr or entry.msgstr_plural), entry.msgid


def test_the_board_hints_piece_word_is_a_key_in_every_language(client):
    """static/js/board/choices.js picks its hints' sentences by the game's piece word
    ("dart": "Choose a highlighted dart."), each language's own: the page hands it over in
    English whatever the page's language (a translated GameSite.piece_word too)."""
    match = make_match("roundabout", ("human", "human"))
    client.force_login(match.seats.get(index=0).user)
    body = client.get(f"/m/{match.public_id}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'data-piece="dart"' in body
