from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = gettext_lazy("Accounts")

    def ready(self):
        from django.contrib.auth.signals import user_logged_in, user_logged_out

        from accounts import sockets, timezones

        # Log-out closes that session's open sockets (accounts/sockets.py, "Sessions").
        user_logged_out.connect(sockets.logged_out, dispatch_uid="accounts.sockets.logged_out")
        # A visitor's zone (the cookie) becomes the profile's at sign-up or log-in (README "Times").
        user_logged_in.connect(timezones.adopt_cookie_zone,
                               dispatch_uid="accounts.timezones.adopt_cookie_zone")
