"""Every language is complete (docs/i18n.md "Keeping them complete"): each
catalogue (the site's ``locale/`` and each game folder's, domains django and
djangojs, every language but English) holds exactly the messages the code
marks today, each translated (every plural form), none fuzzy, placeholders
kept; and the committed .mo files are what msgfmt makes of the .po files.
No database: CI's first pass."""

from __future__ import annotations

import gettext
from pathlib import Path

import polib
import pytest

from games.engine import GAMES
from tests.i18n import catalogues
from tests.i18n.catalogues import LANGUAGES, ROOT, key, shown


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_every_game_folder_has_a_locale_folder_of_its_own_for_every_language():
    """A game brings its own translations (docs/adding-a-game.md): its
    strings go to games/<game>/locale, not to the site's catalogue."""
    missing = [_name(catalogues.game_folder(name) / "locale" / code / "LC_MESSAGES")
               for name in GAMES for code in LANGUAGES
               if not (catalogues.game_folder(name) / "locale" / code / "LC_MESSAGES").is_dir()]
    assert not missing, "create these folders (then make messages): " + ", ".join(missing)


def test_every_catalogue_holds_exactly_the_strings_the_code_marks_today():
    """``makemessages`` run now, in a copy of the project, finds no string
    missing from a catalogue (naming where it is marked) and no entry the code
    no longer marks, and needs no catalogue that is not there."""
    problems = []
    fresh = catalogues.extracted()
    for path, new in sorted(fresh.items()):
        if not path.exists():
            problems.append(f"{_name(path)}: missing ({len(new)} strings marked for it)")
            continue
        old = {key(e) for e in polib.pofile(str(path)) if not e.obsolete}
        now = {key(e): e for e in new if not e.obsolete}
        for k in sorted(now.keys() - old):
            where = ", ".join(f"{file}:{line}" for file, line in now[k].occurrences) or "?"
            problems.append(f"{_name(path)}: lacks {shown(k)}, marked in {where}")
        for k in sorted(old - now.keys()):
            problems.append(f"{_name(path)}: holds {shown(k)}, which no code marks any more")
    for path in catalogues.catalogues():
        if path not in fresh:
            problems.append(f"{_name(path)}: no code marks a string for it any more: delete it and its .mo")
    assert not problems, "run make messages, then translate:\n" + "\n".join(problems)


def _untranslated(po: polib.POFile) -> list[str]:
    plurals = po.metadata.get("Plural-Forms", "")
    try:
        forms = int(plurals.split("nplurals=")[1].split(";")[0])
    except (IndexError, ValueError):
        return [f"no Plural-Forms header ({plurals!r})"]
    found = []
    for entry in po:
        if entry.obsolete:
            continue
        if entry.fuzzy:
            found.append(f"fuzzy: {shown(key(entry))}")
        if entry.msgid_plural:
            given = [entry.msgstr_plural.get(i, "") for i in range(forms)]
            empty = [str(i) for i, text in enumerate(given) if not text.strip()]
            if empty or len(entry.msgstr_plural) != forms:
                found.append(f"plural forms {', '.join(empty) or '?'} of {forms} empty: {shown(key(entry))}")
        elif not entry.msgstr.strip():
            found.append(f"untranslated: {shown(key(entry))}")
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_string_is_translated_in_every_plural_form_and_none_is_fuzzy(language):
    problems = [f"{_name(path)}: {text}" for path in catalogues.catalogues()
                if path.parts[-3] == language for text in _untranslated(polib.pofile(str(path)))]
    assert not problems, "\n".join(problems)


def test_every_catalogue_keeps_its_placeholders_and_compiles_to_the_committed_mo(tmp_path):
    """msgfmt --check-format passes (a translation keeps each ``%(name)s``
    of its msgid), and the committed .mo beside each .po holds the same
    catalogue as the .po compiled now (read with Python's gettext, not
    compared byte for byte: msgfmt versions lay files out differently)."""
    problems = []
    for po in catalogues.catalogues():
        try:
            fresh = catalogues.compiled(po, tmp_path)
        except AssertionError as error:
            problems.append(str(error))
            continue
        committed = po.with_suffix(".mo")
        if not committed.exists():
            problems.append(f"{_name(committed)}: missing")
            continue
        with fresh.open("rb") as f:
            want = gettext.GNUTranslations(f)._catalog
        with committed.open("rb") as f:
            have = gettext.GNUTranslations(f)._catalog
        if want != have:
            differ = sorted(str(k) for k in want.keys() | have.keys() if want.get(k) != have.get(k))
            problems.append(f"{_name(committed)}: differs from its .po in {len(differ)} entries, "
                            f"e.g. {differ[:3]}")
    assert not problems, "run make messages (it compiles the .mo files):\n" + "\n".join(problems)
