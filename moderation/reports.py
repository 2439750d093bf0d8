"""Players' reports of other seats (README "Moderation", Reports).

On a match page a player may report another human seat of that match: a
reason from ``Report.Reason`` and an optional note that only staff see. One
report per (reporter, match, seat); at most REPORT_RATE per reporter. The
reports form a queue in the admin (moderation/admin.py) and each reporter
sees the status of theirs on their own profile (``my_reports``). The page
is moderation/views.py.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from core import ratelimits
from core.errors import Refused
from games.models import Match, Seat
from moderation.models import Report

#: Reports one person may file (core.ratelimits, in Redis).
REPORT_RATE = "10/hour"
NOTE_MAX = 1000


class ReportRefused(Refused):
    """``message`` is safe to show; nothing was stored."""


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
        raise ReportRefused(_("You can report only another player of a match you played in."))
    if reason not in Report.Reason.values:
        raise ReportRefused(_("Choose a reason from the list."))
    if Report.objects.filter(reporter=user, match=match, seat=seat).exists():
        raise ReportRefused(_("You have already reported %(name)s in this match.")
                            % {"name": seat.user.username})
    if not ratelimits.hit(REPORT_RATE, "report", user.pk):
        raise ReportRefused(_("You have sent many reports lately; try again later."))
    try:
        with transaction.atomic():
            return Report.objects.create(reporter=user, match=match, seat=seat, reported_user=seat.user,
                                         reason=reason, note=note.strip()[:NOTE_MAX])
    except IntegrityError:  # the same report twice at one instant
        raise ReportRefused(_("You have already reported %(name)s in this match.")
                            % {"name": seat.user.username}) from None


def my_reports(user) -> list[Report]:
    """``user``'s own reports, newest first (what their profile lists)."""
    return list(Report.objects.filter(reporter=user).select_related("match", "reported_user"))
