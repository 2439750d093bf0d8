"""Ends the sessions of banned users (README "Moderation"); shows each
person's times in their own time zone (README "Times")."""

from datetime import UTC

from django.contrib import messages
from django.contrib.auth import logout
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from accounts import timezones
from accounts.models import BAN_FOREVER


def ban_message(user) -> str:
    """What a banned person is told (log-in form, logged-out page)."""
    reason = user.ban_reason or pgettext("ban reason", "not given")
    if user.banned_until >= BAN_FOREVER:
        return _("This account is banned. Reason: %(reason)s.") % {"reason": reason}
    until = date_format(user.banned_until.astimezone(UTC), "d F Y, H:i")
    return _("This account is suspended until %(until)s UTC. Reason: %(reason)s.") % {"until": until,
                                                                                      "reason": reason}


class BannedUserLogoutMiddleware:
    """A signed-in user who has been banned is logged out on their next
    request (every session of theirs, one by one as each is used) and told
    why. Sits after AuthenticationMiddleware and MessageMiddleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and getattr(user, "is_banned", False):
            text = ban_message(user)
            logout(request)
            messages.error(request, text)
        return self.get_response(request)


class TimeZoneMiddleware:
    """Activates the viewer's time zone for the request: the one kept on a
    signed-in person's profile, else a visitor's cookie, else UTC (the site's
    ``TIME_ZONE``). Sits after AuthenticationMiddleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        name = user.time_zone if user is not None and user.is_authenticated else ""
        zone = timezones.valid_zone(name or request.COOKIES.get(timezones.COOKIE))
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(timezones.get_zone(zone))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
