"""Moderation in the admin (README "Moderation").

The audit log and the report queue, and the moderation actions on the other
apps' admins: ban, suspend and unban on users (with the user's record below
the form), abort and void on matches, revoke on invites. Each action asks
for a reason on an intermediate page (``moderation.admin_tools``) and needs
its own permission (moderation.ban_user, moderation.abort_match,
moderation.void_match, moderation.revoke_invite, moderation.change_report);
the admin only parses and calls ``moderation.actions``.

This app is installed after accounts, games and matchmaking, so their admins
are registered first and replaced here by subclasses with the actions.
"""

from django import forms
from django.contrib import admin
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from accounts.admin import UserAdmin
from accounts.admin_tools import ReadOnlyAdmin
from accounts.models import User
from arenas.admin import ArenaPlayerAdmin
from arenas.models import ArenaPlayer
from games.admin import MatchAdmin
from games.models import Match
from matchmaking.admin import InviteAdmin
from matchmaking.models import Invite
from moderation import actions
from moderation.admin_tools import ReasonForm, run_with_form
from moderation.models import AuditLog, Report


class BanForm(ReasonForm):
    """Ban or suspend: how long is an explicit choice (README "Moderation"), so an
    end date left empty or typed half (a datetime-local field then sends nothing)
    is refused, never taken for a permanent ban; a permanent ban with a date is
    refused too. The date is read in the moderator's time zone (README "Times")."""

    SUSPEND, PERMANENT = "suspend", "permanent"
    length = forms.ChoiceField(
        label=gettext_lazy("How long"), widget=forms.RadioSelect,
        choices=[(SUSPEND, gettext_lazy("Suspend until the date below")),
                 (PERMANENT, gettext_lazy("Ban permanently"))],
    )
    until = forms.DateTimeField(
        required=False, label=gettext_lazy("Suspend until"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    field_order = ["length", "until", "reason"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["until"].help_text = (_("In your time zone, %(zone)s. Only for a suspension.")
                                          % {"zone": timezone.get_current_timezone_name()})

    def clean_until(self):
        until = self.cleaned_data.get("until")
        if until is not None and until <= timezone.now():
            raise forms.ValidationError(_("The end of a suspension must be in the future."))
        return until

    def clean(self):
        data = super().clean()
        length, until = data.get("length"), data.get("until")
        if length == self.SUSPEND and until is None and "until" not in self.errors:
            self.add_error("until", _("A suspension needs its end: a date and a time."))
        if length == self.PERMANENT and (until is not None or self.data.get("until")):
            self.add_error("until", _("A permanent ban has no end date: clear it, or choose a suspension."))
        return data


admin.site.unregister(User)


@admin.register(User)
class ModeratedUserAdmin(UserAdmin):
    actions = ["ban_users", "unban_users"]
    change_form_template = "admin/accounts/user/change_form.html"

    def has_ban_permission(self, request):
        return request.user.has_perm("moderation.ban_user")

    @admin.action(description=gettext_lazy("Ban or suspend the selected users"), permissions=["ban"])
    def ban_users(self, request, queryset):
        return run_with_form(
            self, request, queryset, title=_("Ban or suspend"), form_class=BanForm,
            intro=_("Their live matches count as left, they leave queues and rooms, "
                    "their open pages are disconnected and they cannot log in."),
            perform=lambda user, data: actions.ban_user(
                request.user, user, data["until"] if data["length"] == BanForm.SUSPEND else None,
                data["reason"]),
            done=lambda n: ngettext("%(n)s user banned.", "%(n)s users banned.", n) % {"n": n},
        )

    @admin.action(description=gettext_lazy("Unban the selected users"), permissions=["ban"])
    def unban_users(self, request, queryset):
        return run_with_form(
            self, request, queryset, title=_("Unban"), form_class=ReasonForm,
            perform=lambda user, data: actions.unban_user(request.user, user, data["reason"]),
            done=lambda n: ngettext("%(n)s user unbanned.", "%(n)s users unbanned.", n) % {"n": n},
        )

    def change_view(self, request, object_id, form_url="", extra_context=None):
        user = self.get_object(request, object_id)
        extra = dict(extra_context or {})
        if user is not None:
            extra["record"] = actions.user_record(user)
        return super().change_view(request, object_id, form_url, extra_context=extra)


admin.site.unregister(Match)


@admin.register(Match)
class ModeratedMatchAdmin(MatchAdmin):
    actions = ["abort_matches", "void_matches"]

    def has_abort_permission(self, request):
        return request.user.has_perm("moderation.abort_match")

    def has_void_permission(self, request):
        return request.user.has_perm("moderation.void_match")

    @admin.action(description=gettext_lazy("Abort the selected live matches (no result, no rating)"),
                  permissions=["abort"])
    def abort_matches(self, request, queryset):
        return run_with_form(
            self, request, queryset, title=_("Abort matches"), form_class=ReasonForm,
            intro=_("The matches end with no result and no rating change; their players are told."),
            perform=lambda m, data: actions.abort_match(request.user, m.public_id, data["reason"]),
            done=lambda n: ngettext("%(n)s match aborted.", "%(n)s matches aborted.", n) % {"n": n},
        )

    @admin.action(description=gettext_lazy(
        "Void the selected rated matches (take their rating changes back)"),
                  permissions=["void"])
    def void_matches(self, request, queryset):
        return run_with_form(
            self, request, queryset, title=_("Void matches"), form_class=ReasonForm,
            intro=_("Each player's recorded change is subtracted from their current rating "
                    "(floor 100), the match leaves their rated-games count and their peak is recomputed."),
            perform=lambda m, data: actions.void_match(request.user, m.public_id, data["reason"]),
            done=lambda n: ngettext("%(n)s match voided.", "%(n)s matches voided.", n) % {"n": n},
        )


admin.site.unregister(Invite)


@admin.register(Invite)
class ModeratedInviteAdmin(InviteAdmin):
    actions = ["revoke_invites"]

    def has_revoke_permission(self, request):
        return request.user.has_perm("moderation.revoke_invite")

    @admin.action(description=gettext_lazy("Revoke the selected unused invites"), permissions=["revoke"])
    def revoke_invites(self, request, queryset):
        return run_with_form(
            self, request, queryset, title=_("Revoke invites"), form_class=ReasonForm,
            perform=lambda inv, data: actions.revoke_invite(request.user, inv, data["reason"]),
            done=lambda n: ngettext("%(n)s invite revoked.", "%(n)s invites revoked.", n) % {"n": n},
        )


@admin.register(AuditLog)
class AuditLogAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "actor", "action", "target_user", "target", "reason")
    list_filter = ("action", "created_at")
    search_fields = ("actor__username", "target_user__username", "target", "reason")
    list_select_related = ("actor", "target_user")
    date_hierarchy = "created_at"


class DecisionForm(ReasonForm):
    pass


@admin.register(Report)
class ReportAdmin(ReadOnlyAdmin):
    list_display = ("pk", "created_at", "status", "reason", "reported_user", "reporter", "match_link")
    list_display_links = ("pk", "created_at")
    list_filter = ("status", "reason", "created_at")
    search_fields = ("reported_user__username", "reporter__username", "match__public_id", "note")
    list_select_related = ("reported_user", "reporter", "match")
    fields = ("status", "reason", "note", "reporter", "reported_user", "seat", "match_link",
              "created_at", "decided_by", "decided_at", "decisions")
    readonly_fields = fields
    actions = ["mark_reviewing", "mark_actioned", "mark_dismissed", "reopen"]
    ordering = ("-created_at",)

    @admin.display(description=pgettext_lazy("admin column", "match"))
    def match_link(self, obj):
        url = reverse("admin:games_match_change", args=[obj.match_id])
        return format_html('<a href="{}">{}</a>', url, obj.match.public_id)

    @admin.display(description=gettext_lazy("decisions"))
    def decisions(self, obj):
        rows = AuditLog.objects.filter(action=AuditLog.Action.REPORT, target__startswith=f"report {obj.pk} ")
        return format_html_join(
            "\n", "<p>{} {}: {} {}</p>",
            ((a.created_at.strftime("%Y-%m-%d %H:%M"), a.actor, a.target.split(": ")[-1], a.reason)
             for a in rows.select_related("actor")),
        ) or "–"

    def has_decide_permission(self, request):
        return request.user.has_perm("moderation.change_report")

    def _decide(self, request, queryset, status, title):
        return run_with_form(
            self, request, queryset, title=title, form_class=DecisionForm,
            perform=lambda r, data: actions.decide_report(request.user, r, status, data["reason"]),
            done=lambda n: ngettext("%(n)s report: %(status)s.", "%(n)s reports: %(status)s.", n)
            % {"n": n, "status": str(Report.Status(status).label).lower()},
        )

    @admin.action(description=gettext_lazy("Mark as reviewing"), permissions=["decide"])
    def mark_reviewing(self, request, queryset):
        return self._decide(request, queryset, Report.Status.REVIEWING, _("Mark as reviewing"))

    @admin.action(description=gettext_lazy("Mark as actioned"), permissions=["decide"])
    def mark_actioned(self, request, queryset):
        return self._decide(request, queryset, Report.Status.ACTIONED, _("Mark as actioned"))

    @admin.action(description=gettext_lazy("Dismiss"), permissions=["decide"])
    def mark_dismissed(self, request, queryset):
        return self._decide(request, queryset, Report.Status.DISMISSED, _("Dismiss"))

    @admin.action(description=gettext_lazy("Reopen"), permissions=["decide"])
    def reopen(self, request, queryset):
        return self._decide(request, queryset, Report.Status.OPEN, _("Reopen"))


admin.site.unregister(ArenaPlayer)


@admin.register(ArenaPlayer)
class ModeratedArenaPlayerAdmin(ArenaPlayerAdmin):
    actions = ["disqualify_players"]

    def has_disqualify_permission(self, request):
        return request.user.has_perm("moderation.disqualify_arena_player")

    @admin.action(description=gettext_lazy("Disqualify the selected arena players (their points go)"),
                  permissions=["disqualify"])
    def disqualify_players(self, request, queryset):
        return run_with_form(
            self, request, queryset, title=_("Disqualify arena players"), form_class=ReasonForm,
            intro=_("Their points go to 0, they are not paired again in that arena and may not rejoin it."),
            perform=lambda p, data: actions.disqualify_arena_player(request.user, p.pk, data["reason"]),
            done=lambda n: (ngettext("%(n)s player disqualified.", "%(n)s players disqualified.", n)
                            % {"n": n}),
        )
