"""The site's authentication backend: Django's ModelBackend that refuses
banned users at log-in (README "Moderation"). Listed in AUTHENTICATION_BACKENDS after
django-axes' AxesStandaloneBackend, which refuses locked-out log-ins first.

A session of a user banned after they logged in still resolves to the user
(``get_user`` checks only ``is_active``), so ``accounts.middleware`` can log
them out with a message saying why rather than silently.
"""

import unicodedata

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


def lockout_username(request, credentials=None) -> str | None:
    """The username django-axes counts failures against (AXES_USERNAME_CALLABLE):
    the name typed, from ``credentials`` (the keyword arguments given to
    ``authenticate``) or else the POSTed ``username``, stripped and
    NFKC-normalized as Django's log-in form normalizes it; then the username
    of the account log-in finds for it, when there is one; case-folded. So
    every spelling that logs in to one account shares that account's count
    (usernames are unique regardless of case, and log-in ignores case). Cut
    to a username's 150 characters. None when no name was given."""
    name = (credentials or {}).get("username")
    if name is None and request is not None:
        name = getattr(request, "POST", {}).get("username")
    if not isinstance(name, str):
        return None
    name = unicodedata.normalize("NFKC", name.strip())
    # The account this spelling logs in to, by log-in's own lookup (the
    # database's case rules, which are not Python's: PostgreSQL upper-cases a
    # dotless ı to I), so that every spelling of one account shares its count.
    User = get_user_model()
    try:
        name = User._default_manager.get_by_natural_key(name).get_username()
    except User.DoesNotExist:
        pass
    # No account's name is longer (django-axes keeps at most 255 characters).
    return name.casefold()[:User._meta.get_field(User.USERNAME_FIELD).max_length]
