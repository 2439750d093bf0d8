"""The holidays page: book and cancel the days a player's turn-based
clocks stop (``accounts.holidays``; docs/features.md "Turn-based play")."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts import holidays
from accounts.forms import HolidayForm


@login_required
@require_http_methods(["GET", "POST"])
def holidays_page(request):
    """GET: the player's holidays to come, the days left this year, the
    booking form. POST ``starts_on`` and ``ends_on`` (YYYY-MM-DD) books one;
    POST ``cancel`` (a holiday's id) cancels one not begun. A refused
    booking or cancellation answers 400 with the reason, and nothing changes."""
    user = request.user
    form = HolidayForm()
    error = None
    if request.method == "POST":
        try:
            if "cancel" in request.POST:
                holidays.cancel_holiday(user, request.POST["cancel"])
                messages.success(request, _("Holiday cancelled."))
                return redirect("holidays")
            form = HolidayForm(request.POST)
            if form.is_valid():
                data = form.cleaned_data
                holiday = holidays.book_holiday(user, data["starts_on"], data["ends_on"])
                messages.success(request, _("Holiday booked: %(first)s to %(last)s.") % {
                    "first": date_format(holiday.starts_on, "j F"),
                    "last": date_format(holiday.ends_on, "j F Y")})
                return redirect("holidays")
        except holidays.HolidayError as e:
            error = e.message
    now = timezone.now()
    year = holidays.today_for(user, now).year
    upcoming = holidays.upcoming(user, now)
    used = sum(holidays.days_by_year(h.starts_on, h.ends_on)[year] for h in user.holidays.filter(
        ends_on__year__gte=year, starts_on__year__lte=year))
    context = {
        "form": form, "error": error, "upcoming": upcoming, "now": now, "year": year,
        "days_left": holidays.ALLOWANCE_DAYS - used, "allowance": holidays.ALLOWANCE_DAYS,
    }
    status = 400 if error or form.errors else 200
    return render(request, "accounts/holidays.html", context, status=status)
