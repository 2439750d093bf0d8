from django.apps import AppConfig


class MatchmakingConfig(AppConfig):
    name = "matchmaking"
    verbose_name = "Matchmaking"

    def ready(self):
        # Here, not at the top: these import models, which exist only once apps are loaded.
        from accounts import closing, data
        from games import signals
        from matchmaking import closing as matchmaking_closing
        from matchmaking.rooms import actions as rooms

        signals.match_ended.connect(rooms.on_match_ended, dispatch_uid="matchmaking.rooms.on_match_ended")
        # A closing account leaves the queues (accounts.closing); its data file (accounts.data).
        closing.account_closing.connect(matchmaking_closing.on_account_closing,
                                        dispatch_uid="matchmaking.closing")
        data.collect_data.connect(matchmaking_closing.collect_data, dispatch_uid="matchmaking.closing.data")
