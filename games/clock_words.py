"""The time left on a turn-based clock, in words (docs/features.md "Turn-based play").

A turn-based decision takes days, so its clock reads in days and hours, not
as a seconds countdown: "2 days 5 h", "3 h 20 min", "12 min", "40 s".
static/js/clock_words.js says the same in the browser (its tests:
static/js/tests/clock_words.test.mjs), so a page that counts down never
changes its wording from the server's. Written in the active language
(static/js/clock_words.js: the page's).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.time_controls import DAY

HOUR = 3600
MINUTE = 60


def left(seconds: float) -> str:
    """The time left in the two largest units that matter, each cut down
    (never says more time than there is): "2 days 5 h", "1 day", "3 h 20 min",
    "3 h", "12 min", "40 s", "0 s" (anything below zero). Whole seconds are
    rounded up first, as the live clock does."""
    total = max(0, -int(-seconds // 1))  # rounded up
    if total >= DAY:
        days, hours = total // DAY, total % DAY // HOUR
        text = ngettext("%(days)s day", "%(days)s days", days) % {"days": days}
        # Translators: a clock's time left: days (already written: "2 days"), then hours.
        return _("%(days)s %(hours)s h") % {"days": text, "hours": hours} if hours else text
    if total >= HOUR:
        hours, minutes = total // HOUR, total % HOUR // MINUTE
        if minutes:
            return _("%(hours)s h %(minutes)s min") % {"hours": hours, "minutes": minutes}
        return _("%(hours)s h") % {"hours": hours}
    if total >= MINUTE:
        return _("%(minutes)s min") % {"minutes": total // MINUTE}
    return _("%(seconds)s s") % {"seconds": total}


def left_ms(deadline_ms: int, now_ms: int) -> str:
    """``left`` of the time from ``now_ms`` to ``deadline_ms`` (epoch milliseconds)."""
    return left((deadline_ms - now_ms) / 1000)
