"""The report page (README "Moderation", Reports): ``/m/<id>/report/``."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from core.errors import Refused
from games.views import visible_match
from moderation.models import Report
from moderation.reports import NOTE_MAX, do_report, reportable_seats


class ReportForm(forms.Form):
    seat = forms.TypedChoiceField(label=gettext_lazy("Player"), coerce=int)
    # No reason is chosen until the reporter chooses one (a first reason
    # preselected would be filed by whoever skipped the field).
    reason = forms.ChoiceField(label=gettext_lazy("Reason"),
                               choices=[("", gettext_lazy("Choose a reason…")), *Report.Reason.choices],
                               error_messages={"required": gettext_lazy("Choose a reason from the list.")})
    note = forms.CharField(
        required=False, max_length=NOTE_MAX, widget=forms.Textarea(attrs={"rows": 4}),
        label=gettext_lazy("Note"),
        help_text=gettext_lazy("Optional: what happened. Only the moderators read it."),
    )

    def __init__(self, seats, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = {s.index: s for s in seats}
        self.fields["seat"].choices = [(s.index, s.user.display_name) for s in seats]


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
        except Refused as e:
            form.add_error(None, e.message)
        else:
            messages.success(request, _("Thank you: the moderators will look at your report. "
                                        "Its status is on your profile page."))
            return redirect("match", public_id=match.public_id)
    status = 400 if form.errors else 200
    return render(request, "moderation/report.html",
                  {"form": form if seats else None, "match": match, "seats": seats}, status=status)
