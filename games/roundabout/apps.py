from django.apps import AppConfig


class RoundaboutConfig(AppConfig):
    """The Roundabout folder as a Django app (its templates, static files, template
    tags and translations: games/roundabout/locale)."""

    name = "games.roundabout"
    label = "roundabout"
    verbose_name = "Roundabout"

    def ready(self):
        from django.utils import translation

        from games.roundabout import record

        # record.py is pure Python (.importlinter): it words the move list in the
        # active language through the translation functions it is handed here.
        record.translator = translation
