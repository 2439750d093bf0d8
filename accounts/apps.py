from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self):
        from django.contrib.auth.signals import user_logged_out

        from accounts import sockets

        # Log-out closes that session's open sockets (accounts/sockets.py, "Sessions").
        user_logged_out.connect(sockets.logged_out, dispatch_uid="accounts.sockets.logged_out")
