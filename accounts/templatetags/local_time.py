"""``{% local_time value style %}``: a moment as a ``<time datetime>`` element
(README "Times").

On a page the text is in the viewer's zone (accounts.middleware.TimeZoneMiddleware
activated it); with ``utc=True``, for a fragment pushed to many people at once
and rendered once for them all, it is in UTC and says so. Either way
static/js/times.js rewrites the text in the browser's own zone.
"""

from datetime import UTC

from django import template
from django.utils import dateformat, timezone
from django.utils.html import format_html

register = template.Library()

#: style -> Django date format (month names in the active language: "2 Dec 2026",
#: "2 Dez. 2026"); static/js/times.js has the same three, from Intl.
FORMATS = {"date": "j M Y", "datetime": "j M Y, H:i", "time": "H:i"}


@register.simple_tag
def local_time(value, style: str = "datetime", utc: bool = False):
    """``<time datetime="2026-12-02T03:04:05Z" data-local="datetime">2 Dec 2026,
    04:04</time>`` for an aware datetime ``value``; "" for None. ``style`` is
    "date", "datetime" or "time" (anything else: "datetime")."""
    if value is None:
        return ""
    style = style if style in FORMATS else "datetime"
    moment = value.astimezone(UTC) if utc else timezone.localtime(value)
    stamp = value.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    return format_html('<time datetime="{}" data-local="{}">{}{}</time>', stamp, style,
                       dateformat.format(moment, FORMATS[style]), " UTC" if utc else "")
