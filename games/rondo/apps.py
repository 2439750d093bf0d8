"""Rondo as a Django app (its templates, static files, template tags and
catalogue): once the site is set up, its move list speaks the reader's
language (record.speak: the record module itself is pure Python)."""

from django.apps import AppConfig


class RondoConfig(AppConfig):
    name = "games.rondo"

    def ready(self):
        from django.utils import translation

        from games.rondo import record

        record.speak(translation.gettext, translation.ngettext, translation.pgettext)
