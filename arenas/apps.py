from django.apps import AppConfig


class ArenasConfig(AppConfig):
    name = "arenas"
    verbose_name = "Arenas"

    def ready(self):
        # Here, not at the top: these import models, which exist only once apps are loaded.
        from accounts import closing
        from arenas import actions
        from arenas import closing as arenas_closing
        from games import signals

        signals.match_ended.connect(actions.on_match_ended, dispatch_uid="arenas.actions.on_match_ended")
        # A closing account withdraws from its arenas (accounts.closing).
        closing.account_closing.connect(arenas_closing.on_account_closing, dispatch_uid="arenas.closing")
