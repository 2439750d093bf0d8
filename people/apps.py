from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class PeopleConfig(AppConfig):
    name = "people"
    # Translators: the admin's name of the app that finds and follows players.
    verbose_name = pgettext_lazy("app", "People")
