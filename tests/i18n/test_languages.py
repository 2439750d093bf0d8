"""Each language is applied (docs/i18n.md "Keeping them complete"): every
page and pushed frame of tests/i18n/site.py, rendered in each of the site's
languages, shows no text that is an English message whose translation in
that language differs (a text with a letter in it: punctuation is the
template's; a string marked and translated, but rendered in
English all the same: translated at import time, a frame rendered outside the
reader's language, a cached fragment of another language). And each page
says its language and its direction on <html> (Arabic right to left)."""

from __future__ import annotations

import polib
import pytest
from django.utils import translation

from tests.i18n import catalogues, site
from tests.i18n.catalogues import LANGUAGES

pytestmark = pytest.mark.django_db


def _said(text: str) -> str:
    return " ".join(text.split())


def _english_that_differs(language: str) -> set[str]:
    """The English messages (singular and plural) that ``language``
    translates differently under every context that holds them: the site's
    catalogues, Django's and the installed apps'."""
    files = [p for p in catalogues.catalogues() if p.parts[-3] == language and p.name == "django.po"]
    files += catalogues.djangos(language)
    differs, same = set(), set()
    for path in files:
        if not path.exists():
            continue
        for entry in polib.pofile(str(path)):
            if entry.obsolete or entry.fuzzy or not entry.msgid:
                continue
            if entry.msgid_plural:
                pairs = [(entry.msgid, entry.msgstr_plural.get(0, "")),
                         (entry.msgid_plural, entry.msgstr_plural.get(1, ""))]
            else:
                pairs = [(entry.msgid, entry.msgstr)]
            for english, translated in pairs:
                if "%" in english or "{" in english or not translated:
                    continue  # a template, never shown as it is; or not translated there
                (differs if _said(translated) != _said(english) else same).add(_said(english))
    # The language menu names each language in its own words ("English" for English).
    own_names = {translation.get_language_info(code)["name_local"] for code in (*LANGUAGES, "en")}
    return differs - same - own_names


def test_no_page_or_frame_shows_english_that_its_language_translates():
    """Every language in one test: the pages' world is built once (CI time)."""
    world = site.build()
    failures = []
    for language in LANGUAGES:
        english = _english_that_differs(language)
        rendered = site.pages(world, language)
        direction = "rtl" if translation.get_language_info(language)["bidi"] else "ltr"
        assert f'<html lang="{language}" dir="{direction}">' in rendered["home (visitor)"], language
        report = {page: found for page, html in rendered.items()
                  if (found := [t for t in dict.fromkeys(site.texts(html))
                                if _said(t) in english and any(c.isalpha() for c in t)])}
        if report:
            detail = "\n".join(f"[{page}] {text!r}" for page, found in report.items() for text in found)
            failures.append(f"English left in {language} on {len(report)} pages and frames:\n{detail}")
    assert not failures, "\n".join(failures)
