from django.apps import AppConfig


class ArenasConfig(AppConfig):
    name = "arenas"
    verbose_name = "Arenas"

    def ready(self):
        # Here, not at the top: these import models, which exist only once apps are loaded.
        from arenas import actions
        from games import signals

        signals.match_ended.connect(actions.on_match_ended, dispatch_uid="arenas.actions.on_match_ended")
