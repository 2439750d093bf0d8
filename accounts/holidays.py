"""Holidays: days a player is away, when their turn-based clocks stop
(docs/features.md "Turn-based play", docs/rules.md "Turn timer").

A player may take up to ``ALLOWANCE_DAYS`` days of holiday per calendar
year, booked from today (in their time zone) up to ``AHEAD_DAYS`` ahead. A
holiday is whole days, ``starts_on`` to ``ends_on`` both included, in the
player's time zone (``User.time_zone``; UTC when unknown) at booking; the
moments it covers (``Holiday.starts_at``..``ends_at``) are fixed then, so a
later change of zone moves nothing. One starting today starts at the
booking, never earlier: a clock that already ran is not taken back.

This module checks and writes holidays and answers who is away; what a
holiday does to a match's deadline is the games app's (``games.actions.clock``),
told through ``holidays_changed`` after a holiday is booked or cancelled.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter

from django.contrib.auth import get_user_model
from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import timezones
from accounts.models import Holiday

#: Days of holiday a player may take in one calendar year.
ALLOWANCE_DAYS = 14
#: How far ahead a holiday may start, in days from today.
AHEAD_DAYS = 365

_NEVER = dt.datetime.min.replace(tzinfo=dt.UTC)

#: Sent after commit when a user's holidays changed (``user_id``): their
#: waiting turn-based matches get their deadlines again.
holidays_changed = Signal()


class HolidayError(ValueError):
    """A holiday that cannot be booked or cancelled; ``message`` says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def zone_of(user) -> dt.tzinfo:
    """The time zone a user's holiday days are in: theirs, else UTC."""
    name = timezones.valid_zone(getattr(user, "time_zone", ""))
    return timezones.get_zone(name) if name else dt.UTC


def today_for(user, now: dt.datetime | None = None) -> dt.date:
    """Today's date in ``user``'s time zone."""
    return timezone.localtime(now or timezone.now(), zone_of(user)).date()


def days_by_year(starts_on: dt.date, ends_on: dt.date) -> Counter:
    """{year: days} of the span ``starts_on``..``ends_on`` (both included)."""
    days = Counter()
    day = starts_on
    while day <= ends_on:
        year_end = dt.date(day.year, 12, 31)
        last = min(ends_on, year_end)
        days[day.year] += (last - day).days + 1
        day = last + dt.timedelta(days=1)
    return days


def check_holiday(user, starts_on, ends_on, now: dt.datetime | None = None) -> None:
    """Raises HolidayError unless ``user`` may book ``starts_on``..``ends_on``
    (dates): not in the past, not ending before it starts, not over
    ``AHEAD_DAYS`` ahead, not overlapping another of their holidays, and
    within ``ALLOWANCE_DAYS`` for each calendar year it touches."""
    if not isinstance(starts_on, dt.date) or not isinstance(ends_on, dt.date):
        raise HolidayError(_("Give the first and the last day of the holiday."))
    today = today_for(user, now)
    if starts_on < today:
        raise HolidayError(_("A holiday cannot start in the past (today is %(today)s).")
                           % {"today": date_format(today, "j F Y")})
    if ends_on < starts_on:
        raise HolidayError(_("A holiday cannot end before it starts."))
    if starts_on > today + dt.timedelta(days=AHEAD_DAYS):
        raise HolidayError(ngettext("A holiday can be booked at most %(n)d day ahead.",
                                    "A holiday can be booked at most %(n)d days ahead.", AHEAD_DAYS)
                           % {"n": AHEAD_DAYS})
    taken = Holiday.objects.filter(user=user, ends_on__gte=dt.date(starts_on.year, 1, 1))
    used = Counter()
    for other in taken:
        if other.starts_on <= ends_on and starts_on <= other.ends_on:
            raise HolidayError(_("That overlaps your holiday from %(first)s to %(last)s.") % {
                "first": date_format(other.starts_on, "j F"), "last": date_format(other.ends_on, "j F Y")})
        used.update(days_by_year(other.starts_on, other.ends_on))
    for year, days in sorted(days_by_year(starts_on, ends_on).items()):
        left = ALLOWANCE_DAYS - used[year]
        if days > left:
            raise HolidayError(ngettext("You have %(left)d of %(allowance)d holiday days left in %(year)d; "
                                        "this holiday needs %(days)d.",
                                        "You have %(left)d of %(allowance)d holiday days left in %(year)d; "
                                        "this holiday needs %(days)d.", days)
                               % {"left": left, "allowance": ALLOWANCE_DAYS, "year": year, "days": days})


def book_holiday(user, starts_on: dt.date, ends_on: dt.date, now: dt.datetime | None = None) -> Holiday:
    """Book a holiday for ``user`` (checked by ``check_holiday``, which raises
    HolidayError and changes nothing). Returns the Holiday."""
    now = now or timezone.now()
    with transaction.atomic():
        # One booking at a time per player, so two at once cannot both fit the allowance.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        check_holiday(user, starts_on, ends_on, now)
        zone = zone_of(user)
        starts_at = dt.datetime.combine(starts_on, dt.time(), zone)
        ends_at = dt.datetime.combine(ends_on + dt.timedelta(days=1), dt.time(), zone)
        holiday = Holiday.objects.create(user=user, starts_on=starts_on, ends_on=ends_on,
                                         starts_at=max(starts_at, now), ends_at=ends_at)
        _changed(user.pk)
    return holiday


def cancel_holiday(user, holiday_id, now: dt.datetime | None = None) -> None:
    """Cancel ``user``'s holiday ``holiday_id``. Raises HolidayError when it
    is not theirs or has begun (its days are taken: clocks already stopped)."""
    now = now or timezone.now()
    with transaction.atomic():
        holiday = Holiday.objects.select_for_update().filter(pk=_int(holiday_id), user=user).first()
        if holiday is None:
            raise HolidayError(_("There is no such holiday of yours."))
        if holiday.starts_at <= now:
            raise HolidayError(_("That holiday has begun, so it cannot be cancelled."))
        holiday.delete()
        _changed(user.pk)


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _changed(user_id: int) -> None:
    transaction.on_commit(lambda: holidays_changed.send(sender=Holiday, user_id=user_id))


def upcoming(user, now: dt.datetime | None = None) -> list[Holiday]:
    """``user``'s holidays not yet over, first first."""
    return list(Holiday.objects.filter(user=user, ends_at__gt=now or timezone.now()).order_by("starts_at"))


def spans(user_id: int, since: dt.datetime) -> list[tuple[dt.datetime, dt.datetime]]:
    """(starts_at, ends_at) of the holidays of ``user_id`` that end after
    ``since``, in order; they never overlap."""
    rows = Holiday.objects.filter(user_id=user_id, ends_at__gt=since).order_by("starts_at")
    return list(rows.values_list("starts_at", "ends_at"))


def on_holiday_until(user_ids, now: dt.datetime | None = None) -> dict[int, dt.date]:
    """{user id: the last day of their holiday} for those of ``user_ids`` on
    holiday at ``now`` (default: now); the others are not in it. Holidays
    that follow one another without a gap count as one. One query."""
    now = now or timezone.now()
    rows = (Holiday.objects.filter(user_id__in=[u for u in user_ids if u], ends_at__gt=now)
            .order_by("user_id", "starts_at").values_list("user_id", "starts_at", "ends_at", "ends_on"))
    until, ends = {}, {}
    for user_id, starts_at, ends_at, ends_on in rows:
        if starts_at <= ends.get(user_id, now):  # under way now, or starting as the last one ends
            until[user_id], ends[user_id] = ends_on, ends_at
        else:
            ends[user_id] = _NEVER  # a gap: the later ones are not this holiday
    return until
