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


def client_ip(request) -> str | None:
    """The client's address for django-axes (AXES_CLIENT_IP_CALLABLE).

    With TRUSTED_PROXY_COUNT = N > 0 reverse proxies in front (each appends
    the address it saw to X-Forwarded-For, as deploy/nginx.conf.template's
    ``$proxy_add_x_forwarded_for`` does), the client is the N-th entry from
    the right; entries further left are whatever the client sent and are
    never trusted. Otherwise, and when the header is short, REMOTE_ADDR.
    """
    from django.conf import settings

    count = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    header = request.META.get("HTTP_X_FORWARDED_FOR", "")
    forwarded = [a.strip() for a in header.split(",") if a.strip()]
    if count > 0 and len(forwarded) >= count:
        return forwarded[-count]
    return request.META.get("REMOTE_ADDR")
