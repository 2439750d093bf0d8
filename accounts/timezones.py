"""The viewer's time zone (README "Times"): the IANA zone the browser reports,
kept on the profile (``User.time_zone``) for a signed-in person and in a cookie
for a visitor. Pages render their times in it; frames pushed to many people are
rendered once, in UTC, as ``<time datetime>`` elements that static/js/times.js
rewrites in the browser's zone (``{% local_time %}``)."""

from __future__ import annotations

import functools
import zoneinfo

#: The visitor's zone, for those who are not signed in.
COOKIE = "parlour_tz"
#: A year, in seconds: the zone is sent again whenever the browser's changes.
COOKIE_MAX_AGE = 365 * 24 * 3600


@functools.cache
def _zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def valid_zone(name) -> str | None:
    """``name`` if it is an IANA zone this machine knows ("Europe/Paris",
    "UTC"), else None (anything else: too long, unknown, not a string)."""
    if not isinstance(name, str) or not 0 < len(name) <= 64:
        return None
    return name if name in _zones() else None


@functools.cache
def get_zone(name: str) -> zoneinfo.ZoneInfo:
    """The ZoneInfo of a name ``valid_zone`` accepted."""
    return zoneinfo.ZoneInfo(name)


def adopt_cookie_zone(sender, request, user, **kwargs) -> None:
    """``user_logged_in`` receiver: a person who signs up or logs in with no
    zone on their profile yet keeps the one their browser reported as a
    visitor (the cookie), so their mails and holidays use it too, not only
    the pages (times.js sends the zone only when it differs from the page's)."""
    if user.time_zone or request is None:
        return
    zone = valid_zone(request.COOKIES.get(COOKIE))
    if zone is not None:
        type(user).objects.filter(pk=user.pk, time_zone="").update(time_zone=zone)
        user.time_zone = zone
