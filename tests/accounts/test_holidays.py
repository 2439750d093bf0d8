"""Holidays (docs/features.md "Turn-based play"): booked and cancelled on
their page, up to 14 days a calendar year in the player's time zone; bad
input gets a clear error and changes nothing; who is away, for the pages."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts import holidays
from accounts.models import Holiday, User
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def day(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


#: A fixed "now": Wednesday 10 June 2026, 12:00 UTC.
NOW = dt.datetime(2026, 6, 10, 12, tzinfo=dt.UTC)


def test_a_holiday_covers_whole_days_in_the_players_time_zone():
    user = make_user()
    User.objects.filter(pk=user.pk).update(time_zone="Asia/Tokyo")
    user.refresh_from_db()
    later = holidays.book_holiday(user, day("2026-07-01"), day("2026-07-03"), now=NOW)
    assert later.starts_at == dt.datetime(2026, 6, 30, 15, tzinfo=dt.UTC)  # Tokyo's midnight
    assert later.ends_at == dt.datetime(2026, 7, 3, 15, tzinfo=dt.UTC)
    today = holidays.book_holiday(user, day("2026-06-10"), day("2026-06-10"), now=NOW)
    assert today.starts_at == NOW  # from the booking, never earlier
    assert holidays.on_holiday_until([user.pk, None], NOW) == {user.pk: day("2026-06-10")}
    assert holidays.on_holiday_until([user.pk], NOW + dt.timedelta(hours=4)) == {}  # midnight in Tokyo


def test_holidays_one_after_another_are_one_for_on_holiday_until():
    ada, bob = make_user(), make_user()
    for user in (ada, bob):
        holidays.book_holiday(user, day("2026-06-10"), day("2026-06-11"), now=NOW)
    holidays.book_holiday(ada, day("2026-06-12"), day("2026-06-13"), now=NOW)  # no gap
    holidays.book_holiday(bob, day("2026-06-13"), day("2026-06-14"), now=NOW)  # a day between
    holidays.book_holiday(ada, day("2026-06-20"), day("2026-06-21"), now=NOW)
    assert holidays.on_holiday_until([ada.pk, bob.pk], NOW) == {ada.pk: day("2026-06-13"),
                                                               bob.pk: day("2026-06-11")}


@pytest.mark.parametrize(("start", "end", "says"), [
    ("2026-06-09", "2026-06-12", "cannot start in the past"),
    ("2026-06-20", "2026-06-19", "cannot end before it starts"),
    ("2026-08-01", "2026-08-12", "You have 11 of 14 holiday days left in 2026; this holiday needs 12"),
    ("2026-06-29", "2026-07-02", "overlaps your holiday from 1 July to 3 July 2026"),
    ("2026-12-20", "2027-01-02", "You have 11 of 14 holiday days left in 2026; this holiday needs 12"),
    ("2027-07-01", "2027-07-02", "at most 365 days ahead"),
])
def test_a_holiday_that_does_not_fit_is_refused_and_nothing_changes(start, end, says):
    user = make_user()
    holidays.book_holiday(user, day("2026-07-01"), day("2026-07-03"), now=NOW)
    before = list(Holiday.objects.values_list("pk", "starts_on", "ends_on"))
    with pytest.raises(holidays.HolidayError) as refused:
        holidays.book_holiday(user, day(start), day(end), now=NOW)
    assert says in refused.value.message
    assert list(Holiday.objects.values_list("pk", "starts_on", "ends_on")) == before


def test_the_allowance_is_per_calendar_year():
    user = make_user()
    holidays.book_holiday(user, day("2026-12-25"), day("2027-01-07"), now=NOW)  # 7 days + 7 days
    holidays.book_holiday(user, day("2027-02-01"), day("2027-02-07"), now=NOW)  # 2027: 14 used
    with pytest.raises(holidays.HolidayError, match="0 of 14 holiday days left in 2027"):
        holidays.book_holiday(user, day("2027-03-01"), day("2027-03-01"), now=NOW)
    holidays.book_holiday(user, day("2026-08-01"), day("2026-08-07"), now=NOW)  # 2026: 14 used


def test_a_holiday_under_way_cannot_be_cancelled_nor_another_players():
    user, other = make_user(), make_user()
    now = timezone.now()
    started = holidays.book_holiday(user, holidays.today_for(user, now), holidays.today_for(user, now))
    with pytest.raises(holidays.HolidayError, match="has begun"):
        holidays.cancel_holiday(user, started.pk)
    with pytest.raises(holidays.HolidayError, match="no such holiday"):
        holidays.cancel_holiday(other, started.pk)
    with pytest.raises(holidays.HolidayError, match="no such holiday"):
        holidays.cancel_holiday(user, "not a number")
    assert Holiday.objects.filter(pk=started.pk).exists()


def test_the_holidays_page_books_refuses_and_cancels(client):
    user = make_user()
    client.force_login(user)
    page = reverse("holidays")
    assert page in client.get(reverse("profile", args=[user.username])).content.decode()
    resp = client.get(page)
    assert resp.status_code == 200 and "14</strong> of 14 days left" in resp.content.decode()
    today = holidays.today_for(user)
    start, end = today + dt.timedelta(days=2), today + dt.timedelta(days=4)
    resp = client.post(page, {"starts_on": start.isoformat(), "ends_on": end.isoformat()}, follow=True)
    assert "Holiday booked" in resp.content.decode()
    (holiday,) = Holiday.objects.filter(user=user)
    for bad, says in [({"starts_on": "yesterday", "ends_on": end.isoformat()}, "Enter a valid date"),
                      ({"starts_on": start.isoformat(), "ends_on": end.isoformat()}, "overlaps your holiday"),
                      ({"starts_on": (today - dt.timedelta(days=1)).isoformat(),
                        "ends_on": today.isoformat()}, "cannot start in the past")]:
        resp = client.post(page, bad)
        assert resp.status_code == 400 and says in resp.content.decode()
    assert Holiday.objects.filter(user=user).count() == 1
    resp = client.post(page, {"cancel": holiday.pk}, follow=True)
    assert "Holiday cancelled" in resp.content.decode() and not Holiday.objects.filter(user=user).exists()
    client.logout()
    assert client.get(page).status_code == 302  # to the log-in page
