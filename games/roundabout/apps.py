from django.apps import AppConfig


class RoundaboutConfig(AppConfig):
    """The Roundabout folder as a Django app (its templates, static files, template
    tags and translations: games/roundabout/locale)."""

    name = "games.roundabout"
    label = "roundabout"
    verbose_name = "Roundabout"

    def ready(self):
        from django.core.signals import setting_changed
        from django.utils import translation

        from games.roundabout import record, words

        # record.py is pure Python (.importlinter): it words the move list in the
        # active language through the translation functions it is handed here.
        record.translator = translation
        # The board's and the moves' words are looked up once per language; a test that
        # changes the languages or the catalogues' folders gets them afresh, as Django's own.
        setting_changed.connect(words.on_setting_changed, dispatch_uid="games.roundabout.words")
