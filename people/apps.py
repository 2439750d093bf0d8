from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class PeopleConfig(AppConfig):
    name = "people"
    verbose_name = gettext_lazy("People")
