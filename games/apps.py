from celery.signals import after_task_publish
from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        # games.uptime imports the models, which load only after every app's config.
        from accounts import closing, data
        from accounts.holidays import holidays_changed
        from games import closing as games_closing
        from games import signals, turn_mail, uptime, your_matches
        from games.actions.clock import on_holidays_changed
        from notifications import mail, notify

        # Beat's heartbeat (games/uptime.py): only beat sends the sweep task.
        after_task_publish.connect(uptime.on_task_sent, sender=uptime.SWEEP_TASK, weak=False,
                                   dispatch_uid="games.uptime.on_task_sent")
        # "Your matches" is a live panel of the user socket (README "Notifications").
        notify.register_panel(your_matches.PANEL, your_matches.panel_html)
        # A holiday booked or cancelled moves the deadlines of the matches waiting for its player.
        holidays_changed.connect(on_holidays_changed, weak=False, dispatch_uid="games.clock.holidays")
        # Turn-based mail (games/turn_mail.py): the periodic jobs notifications runs, and the result.
        mail.register_job("your-turn digests", turn_mail.send_digests)
        mail.register_job("reminders", turn_mail.send_reminders)
        signals.match_ended.connect(turn_mail.on_match_ended, dispatch_uid="games.turn_mail.on_match_ended")
        # A closing account leaves its matches; its data file lists its matches (accounts.closing, .data).
        closing.account_closing.connect(games_closing.on_account_closing, dispatch_uid="games.closing")
        data.collect_data.connect(games_closing.collect_data, dispatch_uid="games.closing.data")
        # The turn-based matches waiting for you: the badge beside Play on every page.
        notify.register_count(your_matches.COUNT, your_matches.your_turn_count)
