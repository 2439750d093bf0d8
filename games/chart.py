"""The rating chart of a profile: an SVG drawn on the server (README "Ranked play").

``rating_chart`` turns a player's rating changes in one game (oldest first)
into coordinates for ``templates/games/rating_chart.html``: one point per
rated match, the rating after it, plus the starting rating before the first.
Units: SVG user units (the viewBox is WIDTH x HEIGHT); ratings in rating points.
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

WIDTH = 600
HEIGHT = 200
PAD_LEFT = 44
PAD_RIGHT = 10
PAD_Y = 14
#: Room under the plot for the date labels.
PAD_BOTTOM = 34
#: Date labels along the bottom at most (the first, the last, evenly between).
DATE_TICKS = 4
#: Above this many matches the points are not drawn as dots, only the line.
DOTS_MAX = 120


def rating_chart(changes) -> dict | None:
    """Chart data for rating steps (games.history.RatingStep or RatingChange
    rows: ``before``, ``after``, ``delta``, ``created``, optional ``voided``;
    oldest first), or None when empty. ``count`` counts rated matches that
    still stand: a voided match's step and its taking back both leave it.

    Returns ``{"width", "height", "line": "x,y x,y ...", "dots": [{"x", "y",
    "label"}], "ticks": [{"y", "label"}], "dates": [{"x", "label"}], "bottom",
    "since", "until" (the first and last match's days), "count", "first",
    "last", "low", "high"}``. ``dates`` label the x axis (one point per match,
    so not a time scale): up to DATE_TICKS points' days, in the
    current time zone (the viewer's: README "Times"), the starting rating sharing
    the first match's day.
    """
    changes = list(changes)
    if not changes:
        return None
    values = [changes[0].before] + [c.after for c in changes]
    low, high = min(values), max(values)
    span = max(high - low, 50.0)
    mid = (high + low) / 2
    low, high = mid - span / 2 - span * 0.05, mid + span / 2 + span * 0.05
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_Y - PAD_BOTTOM

    def x(i: int) -> float:
        return round(PAD_LEFT + inner_w * i / max(1, len(values) - 1), 1)

    def y(v: float) -> float:
        return round(PAD_Y + inner_h * (high - v) / (high - low), 1)

    points = [(x(i), y(v)) for i, v in enumerate(values)]
    dots = []
    if len(changes) <= DOTS_MAX:
        for i, c in enumerate(changes, start=1):
            sign = "+" if c.delta >= 0 else "−"
            words = {"rating": round(c.after), "change": f"{sign}{abs(round(c.delta))}",
                     "day": _day(c.created)}
            if getattr(c, "voided", False):
                label = _("%(rating)s (%(change)s), a voided match taken back, %(day)s") % words
            else:
                label = _("%(rating)s (%(change)s), %(day)s") % words
            dots.append({"x": points[i][0], "y": points[i][1], "label": label})
    ticks = [{"y": y(v), "label": round(v)} for v in (high - (high - low) * 0.05, (high + low) / 2,
                                                       low + (high - low) * 0.05)]
    return {
        "width": WIDTH, "height": HEIGHT, "left": PAD_LEFT, "right": WIDTH - PAD_RIGHT,
        "bottom": HEIGHT - PAD_BOTTOM, "dates": _date_ticks(changes, points),
        "since": _day(changes[0].created), "until": _day(changes[-1].created),
        "line": " ".join(f"{px},{py}" for px, py in points), "dots": dots, "ticks": ticks,
        "count": len(changes) - 2 * sum(bool(getattr(c, "voided", False)) for c in changes),
        "first": round(values[0]), "last": round(values[-1]),
        "low": round(min(values)), "high": round(max(values)),
    }


def _day(moment) -> str:
    """The day of ``moment`` in the viewer's time zone and language: "4 Dec 2026"."""
    return date_format(timezone.localtime(moment), "j M Y")


def _date_ticks(changes, points) -> list[dict]:
    # Point i > 0 is change i - 1; point 0, the start, shares the first match's day.
    n = len(points)
    picks = sorted({round(k * (n - 1) / (DATE_TICKS - 1)) for k in range(DATE_TICKS)}) if n > 1 else [0]
    ticks, seen = [], set()
    for i in picks:
        label = _day(changes[max(i - 1, 0)].created)
        if label not in seen:
            seen.add(label)
            ticks.append({"x": points[i][0], "label": label})
    return ticks
