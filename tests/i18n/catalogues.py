"""The translation catalogues as the tests read them (docs/i18n.md "Catalogues"):
where they are, what ``makemessages`` extracts today, and what ``msgfmt``
compiles. Needs GNU gettext (xgettext, msgmerge, msgfmt), as ``make messages`` does.
"""

from __future__ import annotations

import fnmatch
import functools
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import django
import polib
from django.conf import settings

from core.management.commands.makemessages import IGNORED
from games.engine import GAMES

ROOT = Path(settings.BASE_DIR)
DOMAINS = ("django", "djangojs")
#: Every language but English (the msgids are English).
LANGUAGES = tuple(code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE)


def locale_folders() -> list[Path]:
    """The site's catalogue folder (LOCALE_PATHS) and each game folder's own."""
    return [Path(p) for p in settings.LOCALE_PATHS] + [game_folder(name) / "locale" for name in GAMES]


def game_folder(name: str) -> Path:
    return ROOT.joinpath(*GAMES[name].split("."))


def catalogues() -> list[Path]:
    """Every .po file of every locale folder, domain and language that exists."""
    return sorted(p for folder in locale_folders() for p in folder.glob("*/LC_MESSAGES/*.po"))


def key(entry: polib.POEntry) -> tuple[str, str]:
    """An entry's identity in a catalogue: its context and its msgid."""
    return (entry.msgctxt or "", entry.msgid)


def shown(k: tuple[str, str]) -> str:
    context, msgid = k
    return f"{msgid!r}" + (f" (context {context!r})" if context else "")


#: The files makemessages reads (domain django: templates and Python; djangojs: scripts).
SOURCES = (".py", ".html", ".txt", ".js")
#: Data files the code reads when Django starts (Rondo's board), copied too.
DATA = (".json",)


def _skipped(folder: str, names: list[str]) -> set[str]:
    """What the copy for extraction leaves out: what makemessages ignores
    (core/management/commands/makemessages.py), version control, caches,
    and every file but the sources it reads (the catalogues too: they are
    written afresh from what is marked)."""
    rel = os.path.relpath(folder, ROOT)
    skip = {".git", "__pycache__", "node_modules", ".pytest_cache", ".ruff_cache", ".hypothesis"}
    for name in names:
        path = os.path.normpath(os.path.join(rel, name))
        if any(fnmatch.fnmatchcase(path, pattern) for pattern in IGNORED):
            skip.add(name)
        elif os.path.isfile(os.path.join(folder, name)) and not name.endswith(SOURCES + DATA):
            skip.add(name)
    return skip


@functools.cache
def extracted() -> dict[Path, polib.POFile]:
    """What ``makemessages`` makes of the sources today: it runs, for both
    domains and every language, in a copy of the project without its
    catalogues; returns each catalogue it wrote there (every string marked
    today, with where it is marked), by the path the catalogue has (or would
    have) in the project."""
    with tempfile.TemporaryDirectory(prefix="parlour-messages-") as tmp:
        copy = Path(tmp) / "project"
        shutil.copytree(ROOT, copy, ignore=_skipped, symlinks=True)
        env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", DEBUG="1", PYTHONPATH=str(copy))
        env.pop("DATABASE_URL", None)
        # Both domains in one process (a Django start is about a second of CPU).
        script = ("import django; django.setup(); from django.core.management import call_command\n"
                  f"for domain in {DOMAINS!r}:\n"
                  f"    call_command('makemessages', domain=domain, locale={list(LANGUAGES)!r}, verbosity=0)")
        done = subprocess.run([sys.executable, "-c", script], cwd=copy, env=env, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, f"makemessages failed:\n{done.stderr}"
        found = {}
        for folder in locale_folders():
            mirrored = copy / folder.relative_to(ROOT)
            for po in mirrored.glob("*/LC_MESSAGES/*.po"):
                found[folder / po.relative_to(mirrored)] = polib.pofile(str(po))
        return found


def djangos(language: str) -> list[Path]:
    """Django's own catalogues of ``language`` (its core's and every
    installed app's, Django's contrib and the third-party apps), that exist."""
    from django.apps import apps

    folders = [Path(django.__file__).parent / "conf" / "locale"]
    folders += [Path(app.path) / "locale" for app in apps.get_app_configs()]
    return [p for f in folders if (p := f / language / "LC_MESSAGES" / "django.po").exists()]


def compiled(po: Path, into: Path) -> Path:
    """``po`` compiled by msgfmt (as compilemessages does) into the folder ``into``."""
    mo = into / (po.relative_to(ROOT).as_posix().replace("/", "__") + ".mo")
    command = ["msgfmt", "--check-format", "-o", str(mo), str(po)]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, f"msgfmt --check-format {po.relative_to(ROOT)}:\n{done.stderr}"
    return mo
