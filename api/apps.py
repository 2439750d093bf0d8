from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "Bot and board API"

    def ready(self):
        from api import events

        events.connect()
