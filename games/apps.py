from celery.signals import after_task_publish
from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        # games.uptime imports the models, which load only after every app's config.
        from games import uptime, your_matches
        from notifications import notify

        # Beat's heartbeat (games/uptime.py): only beat sends the sweep task.
        after_task_publish.connect(uptime.on_task_sent, sender=uptime.SWEEP_TASK, weak=False,
                                   dispatch_uid="games.uptime.on_task_sent")
        # "Your matches" is a live panel of the user socket (README "Notifications").
        notify.register_panel(your_matches.PANEL, your_matches.panel_html)
        # The turn-based matches waiting for you: the badge beside Play on every page.
        notify.register_count(your_matches.COUNT, your_matches.your_turn_count)
