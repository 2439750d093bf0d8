from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = gettext_lazy("Notifications")

    def ready(self):
        # Here, not at the top: these import models, which exist only once apps are loaded.
        from accounts import closing, data
        from notifications import closing as notifications_closing

        # A closed account's mail settings go; its data file lists them.
        closing.account_closing.connect(notifications_closing.on_account_closing,
                                        dispatch_uid="notifications.closing")
        data.collect_data.connect(notifications_closing.collect_data,
                                  dispatch_uid="notifications.closing.data")
