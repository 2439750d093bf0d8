"""What moderation does when an account closes (``accounts.closing``) and
what it adds to an account's data file (``accounts.data``).

The audit log keeps every row about the account (``target_user`` still
points at the anonymised row: who did what, when, and why), with its old
name replaced by "deleted player" in the words of each row."""

from __future__ import annotations

from accounts.closing import scrub
from moderation.models import AuditLog, Report


def on_account_closing(sender, user, **kwargs) -> None:
    for entry in AuditLog.objects.filter(target_user=user):
        target, reason = scrub(entry.target, user.username), scrub(entry.reason, user.username)
        if (target, reason) != (entry.target, entry.reason):
            AuditLog.objects.filter(pk=entry.pk).update(target=target, reason=reason)


def collect_data(sender, user, **kwargs) -> dict:
    """``reports_filed``: each report the account made, with its status."""
    reports = Report.objects.filter(reporter=user).select_related("match", "seat").order_by("created_at")
    return {"reports_filed": [
        {"match": r.match.public_id, "seat": r.seat.index, "reason": r.reason, "note": r.note,
         "status": r.status, "created_at": r.created_at.isoformat()}
        for r in reports
    ]}
