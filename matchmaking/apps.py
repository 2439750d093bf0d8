from django.apps import AppConfig


class MatchmakingConfig(AppConfig):
    name = "matchmaking"
    verbose_name = "Matchmaking"

    def ready(self):
        # Here, not at the top: these import models, which exist only once apps are loaded.
        from games import signals
        from matchmaking.rooms import actions as rooms

        signals.match_ended.connect(rooms.on_match_ended, dispatch_uid="matchmaking.rooms.on_match_ended")
