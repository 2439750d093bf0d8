"""Moderation's records: the audit log of every moderation action, and
players' reports (README "Moderation"). Both tables keep the names they had
when these models lived in the games app (``db_table``); their rows, content
types and permissions moved with them (migrations/0001_initial.py).
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import Match, Seat


class AuditLog(models.Model):
    """One moderation action: who did what, to whom, why and when. Rows are
    only ever added (``moderation.actions.record``); the admin shows them
    read-only.
    ``target`` describes the object acted on in words ("match abc123",
    "invite 7 to room K7QX2M"), so a row outlives what it names."""

    class Action(models.TextChoices):
        BAN = "ban", pgettext_lazy("audit action", "Ban")
        UNBAN = "unban", pgettext_lazy("audit action", "Unban")
        ABORT = "abort", pgettext_lazy("audit action", "Abort match")
        VOID = "void", pgettext_lazy("audit action", "Void match")
        REPORT = "report", pgettext_lazy("audit action", "Report decision")
        REVOKE_INVITE = "revoke_invite", pgettext_lazy("audit action", "Revoke invite")
        DISQUALIFY = "disqualify", pgettext_lazy("audit action", "Disqualify from an arena")

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+",
        help_text=_("The moderator."),
    )
    action = models.CharField(max_length=16, choices=Action.choices)
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="audit_entries",
    )
    target = models.CharField(_("object"), max_length=200, blank=True)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        db_table = "games_auditlog"  # the table it had in the games app
        ordering = ["-created_at", "-pk"]
        verbose_name = _("audit log entry")
        verbose_name_plural = _("audit log")
        # Moderation verbs beyond add/change/delete/view (the Moderators group has them).
        permissions = [
            ("ban_user", "Can ban, suspend and unban users"),
            ("abort_match", "Can abort a live match"),
            ("void_match", "Can void a finished rated match"),
            ("revoke_invite", "Can revoke a room invite"),
            ("disqualify_arena_player", "Can disqualify a player from an arena"),
        ]

    def __str__(self):
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor}: {self.get_action_display()} {self.target}"



class Report(models.Model):
    """A player's report of another seat of a match they played (README
    "Moderation", Reports). The note is for staff only; the reporter sees the
    status on their profile. Written only by ``moderation.reports`` and
    ``moderation.actions.decide_report``."""

    class Reason(models.TextChoices):
        ABUSE = "abuse", pgettext_lazy("report reason", "Abusive or offensive chat")
        CHEATING = "cheating", pgettext_lazy("report reason", "Cheating or collusion")
        STALLING = "stalling", pgettext_lazy("report reason", "Stalling or leaving on purpose")
        NAME = "name", pgettext_lazy("report reason", "Offensive username")
        OTHER = "other", pgettext_lazy("report reason", "Something else")

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("report status", "Open")
        REVIEWING = "reviewing", pgettext_lazy("report status", "Reviewing")
        ACTIONED = "actioned", pgettext_lazy("report status", "Actioned")
        DISMISSED = "dismissed", pgettext_lazy("report status", "Dismissed")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made"
    )
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reports")
    seat = models.ForeignKey(
        Seat, on_delete=models.CASCADE, related_name="reports", help_text=_("The reported seat.")
    )
    reported_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_received"
    )
    reason = models.CharField(max_length=16, choices=Reason.choices)
    note = models.TextField(blank=True, max_length=1000, help_text=_("Seen only by staff."))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "games_report"  # the table it had in the games app
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["reporter", "match", "seat"], name="report_once_per_seat")
        ]
        indexes = [models.Index(fields=["status", "-created_at"], name="report_queue")]

    def __str__(self):
        return f"report {self.pk}: {self.reported_user} in {self.match} ({self.get_status_display()})"
