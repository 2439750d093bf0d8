"""The site's authentication backend: Django's ModelBackend that refuses
banned users at log-in (issue 9). Listed in AUTHENTICATION_BACKENDS after
django-axes' AxesStandaloneBackend, which refuses locked-out log-ins first.

A session of a user banned after they logged in still resolves to the user
(``get_user`` checks only ``is_active``), so ``accounts.middleware`` can log
them out with a message saying why rather than silently.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend


class ParlourBackend(ModelBackend):
    def user_can_authenticate(self, user) -> bool:
        """Active and not banned (``User.is_banned``): used when logging in."""
        return super().user_can_authenticate(user) and not getattr(user, "is_banned", False)

    def get_user(self, user_id):
        """The session's user if active (banned ones too: the middleware logs them out)."""
        user = get_user_model()._default_manager.filter(pk=user_id).first()
        return user if user is not None and ModelBackend.user_can_authenticate(self, user) else None

