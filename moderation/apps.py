from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = "Moderation"

    def ready(self):
        # Here, not at the top: these import models, which exist only once apps are loaded.
        from accounts import closing, data
        from moderation import closing as moderation_closing

        # A closed account's name leaves the audit log; its data file lists its reports.
        closing.account_closing.connect(moderation_closing.on_account_closing,
                                        dispatch_uid="moderation.closing")
        data.collect_data.connect(moderation_closing.collect_data, dispatch_uid="moderation.closing.data")
