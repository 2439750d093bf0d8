"""Ludo as a Django app (its templates, static files, template tags and
catalogue): once the site is set up, its move list speaks the reader's
language (record.speak: the record module itself is pure Python)."""

from django.apps import AppConfig


class LudoConfig(AppConfig):
    name = "games.ludo"

    def ready(self):
        from django.utils import translation

        from games.ludo import record

        record.speak(translation.gettext)
