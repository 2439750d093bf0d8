"""Players' reports of other seats (issue 9 "Reports").

On a match page a player may report another human seat of that match: a
reason from ``Report.Reason`` and an optional note that only staff see. One
report per (reporter, match, seat); at most REPORT_RATE per reporter. The
reports form a queue in the admin (games/admin.py) and each reporter sees
the status of theirs on their own profile (``my_reports``).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games import ratelimits
from games.models import Match, Report, Seat
from games.views import visible_match

#: Reports one person may file (games.ratelimits, in Redis).
REPORT_RATE = "10/hour"
NOTE_MAX = 1000


class ReportRefused(Exception):
    """``message`` is safe to show; nothing was stored."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def reportable_seats(match: Match, user) -> list[Seat]:
    """The seats ``user`` may report in ``match``: the other human seats, if
    ``user`` has a seat there; else []."""
    seats = list(match.seats.select_related("user"))
    if not any(s.user_id == user.pk for s in seats):
        return []
    return [s for s in seats if s.user_id and s.user_id != user.pk]


def do_report(user, match: Match, seat: Seat, reason: str, note: str = "") -> Report:
    """File ``user``'s report of ``seat`` in ``match``. Raises ReportRefused:
    not a player of the match, the seat is theirs or a computer, an unknown
    reason, already reported, too many reports lately."""
    if seat not in reportable_seats(match, user):
        raise ReportRefused("You can report only another player of a match you played in.")
    if reason not in Report.Reason.values:
        raise ReportRefused("Choose a reason from the list.")
    if Report.objects.filter(reporter=user, match=match, seat=seat).exists():
        raise ReportRefused(f"You have already reported {seat.user.username} in this match.")
    if not ratelimits.hit(REPORT_RATE, "report", user.pk):
        raise ReportRefused("You have sent many reports lately; try again later.")
    try:
        with transaction.atomic():
            return Report.objects.create(reporter=user, match=match, seat=seat, reported_user=seat.user,
                                         reason=reason, note=note.strip()[:NOTE_MAX])
    except IntegrityError:  # the same report twice at one instant
        raise ReportRefused(f"You have already reported {seat.user.username} in this match.") from None


def my_reports(user) -> list[Report]:
    """``user``'s own reports, newest first (what their profile lists)."""
    return list(Report.objects.filter(reporter=user).select_related("match", "reported_user"))


class ReportForm(forms.Form):
    seat = forms.TypedChoiceField(label="Player", coerce=int)
    reason = forms.ChoiceField(choices=Report.Reason.choices)
    note = forms.CharField(
        required=False, max_length=NOTE_MAX, widget=forms.Textarea(attrs={"rows": 4}),
        help_text="Optional: what happened. Only the moderators read it.",
    )

    def __init__(self, seats, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = {s.index: s for s in seats}
        self.fields["seat"].choices = [(s.index, s.user.username) for s in seats]


@login_required
@require_http_methods(["GET", "POST"])
def report_page(request, public_id):
    """``/m/<id>/report/``: the form (GET), or file the report (POST) and go
    back to the match with a message. 404 for a match the user cannot see."""
    match = visible_match(public_id, request.user)
    seats = reportable_seats(match, request.user)
    form = ReportForm(seats, request.POST if request.method == "POST" else None,
                      initial={"seat": request.GET.get("seat")})
    if request.method == "POST" and form.is_valid():
        try:
            do_report(request.user, match, form.seats[form.cleaned_data["seat"]],
                      form.cleaned_data["reason"], form.cleaned_data["note"])
        except ReportRefused as e:
            form.add_error(None, e.message)
        else:
            messages.success(request, "Thank you: the moderators will look at your report. "
                                      "Its status is on your profile page.")
            return redirect("match", public_id=match.public_id)
    status = 400 if form.errors else 200
    return render(request, "games/report.html",
                  {"form": form if seats else None, "match": match, "seats": seats}, status=status)
