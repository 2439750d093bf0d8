"""No English left unmarked (docs/i18n.md "Keeping them complete"): a
pseudo-language whose every translation is its message between ⟦ and ⟧
(``⟦Roll the die⟧``, placeholders kept) is built now from every message the
code marks (``makemessages`` run now, tests/i18n/catalogues.py) and every
message of Django's own and the installed apps' catalogues, compiled, and
activated (cookie, Accept-Language and the account's choice); then every
page a person reads and each game's pushed frames are rendered in it
(tests/i18n/site.py). Any text a person reads with a Latin letter outside
the markers was not marked for translation: the test lists each, with the
page it came from.

What may be read in Latin letters in every language (ALLOWED, kept short):
the players' names, the games' names and "Parlour" (names are not
translated: docs/glossary.md), the languages' own names in the language menu,
e-mail addresses and web addresses. Text in <code>, <kbd>, <pre> and
<samp> is notation and is not read here (tests/i18n/site.py).
"""

from __future__ import annotations

import re

import polib
import pytest
from django.conf import settings
from django.utils import translation

from accounts import languages
from games.engine import GAMES
from tests.i18n import catalogues, site

pytestmark = pytest.mark.django_db

#: The pseudo-language: a region of English no one speaks (Android's
#: pseudo-locale has the same code), so Django's English formats apply.
PSEUDO = "en-xa"
OPEN, CLOSE = site.OPEN, site.CLOSE
_MARKED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
_LATIN = re.compile(r"[A-Za-z]")
_ADDRESSES = re.compile(r"[\w.+-]+@[\w-]+(\.[\w-]+)+|https?://\S+|\b[\w-]+(\.[\w-]+)+/\S*")
#: Names, never translated (docs/glossary.md), and the names of standards every
#: language writes in Latin letters (a format, a hash, a time zone).
NAMES = ("Parlour", *(name.title() for name in GAMES), *(name.upper() for name in GAMES),
         "JSON", "HTTP", "API", "SHA-256", "HMAC-SHA256", "ASCII", "UTC",
         # The standard score's symbol, beside the luck figure, as statistics writes it everywhere.
         "z",
         # Rondo's tile letters, drawn on each tile beside its colour for colour-blind players:
         # one key in every language, as the board's colours are (docs/i18n.md "Catalogues").
         "Y", "R", "P", "B", "G")


def _pseudo(text: str) -> str:
    return f"{OPEN}{text}{CLOSE}" if text else text


def _sources() -> list[polib.POFile]:
    """Every message the site may translate: the code's (as makemessages
    extracts it now, domain django) and Django's and every app's own."""
    found = [po for path, po in catalogues.extracted().items()
             if path.parts[-3] == catalogues.LANGUAGES[0] and path.name == "django.po"]
    return found + [polib.pofile(str(po)) for po in catalogues.djangos("en")]


@pytest.fixture
def pseudo_language(tmp_path, settings, monkeypatch):
    """The pseudo-language, compiled into a LOCALE_PATHS folder of its own
    and offered as one of the site's languages for the test."""
    catalogue = polib.POFile()
    catalogue.metadata = {"Content-Type": "text/plain; charset=UTF-8",
                          "Plural-Forms": "nplurals=2; plural=(n != 1);"}
    seen = set()
    for po in _sources():
        for entry in po:
            key = catalogues.key(entry)
            if entry.obsolete or not entry.msgid or key in seen:
                continue
            seen.add(key)
            pseudo = polib.POEntry(msgctxt=entry.msgctxt, msgid=entry.msgid, msgid_plural=entry.msgid_plural)
            if entry.msgid_plural:
                pseudo.msgstr_plural = {0: _pseudo(entry.msgid), 1: _pseudo(entry.msgid_plural)}
            else:
                pseudo.msgstr = _pseudo(entry.msgid)
            catalogue.append(pseudo)
    folder = tmp_path / "locale" / translation.to_locale(PSEUDO) / "LC_MESSAGES"
    folder.mkdir(parents=True)
    catalogue.save_as_mofile(str(folder / "django.mo"))
    settings.LOCALE_PATHS = [*settings.LOCALE_PATHS, tmp_path / "locale"]
    settings.LANGUAGES = [*settings.LANGUAGES, (PSEUDO, "Pseudo")]
    monkeypatch.setattr(languages, "CODES", languages.CODES | {PSEUDO})
    # Changing these settings empties Django's caches of translations
    # (django.test.signals.language_changed), before the test and after it.
    yield PSEUDO


def unmarked(text: str, allowed: set[str]) -> str | None:
    """``text`` with its translated parts and what ALLOWED names taken out:
    what is left when it holds a Latin letter, else None."""
    left = text
    while True:
        stripped = _MARKED.sub(" ", left)
        if stripped == left:
            break
        left = stripped
    left = _ADDRESSES.sub(" ", left)
    for name in sorted(allowed, key=len, reverse=True):
        left = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", left)
    return text if _LATIN.search(left) else None


def test_every_text_on_every_page_and_frame_is_marked_for_translation(pseudo_language):
    world = site.build()
    rendered = site.pages(world, pseudo_language)
    # The language menu names each language in its own words (Django's names).
    names = {n for code, name in settings.LANGUAGES
             for n in (name, translation.get_language_info(code)["name_local"])}
    allowed = {*world.user_names, *world.identifiers, *world.names_given, *NAMES, *names}
    report = {}
    for page, html in rendered.items():
        found = [t for t in dict.fromkeys(site.texts(html)) if unmarked(t, allowed)]
        if found:
            report[page] = found
    # The pseudo-language was the page's (LocaleMiddleware chose it) and the frames'.
    assert f'<html lang="{PSEUDO}"' in rendered["home (visitor)"], "the pseudo-language was not applied"
    with translation.override(PSEUDO):
        assert translation.gettext("This field is required.") == "⟦This field is required.⟧"
    summary = "\n".join(f"  {page}: {len(found)}" for page, found in report.items())
    detail = "\n".join(f"[{page}] {text!r}" for page, found in report.items() for text in found)
    assert not report, (f"texts not marked for translation, {sum(map(len, report.values()))} on "
                        f"{len(report)} of {len(rendered)} pages and frames:\n{summary}\n{detail}")
