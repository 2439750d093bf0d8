"""Matches, rating changes, voids, reports and the audit log in the admin
(issue 9 "Moderation").

Every model here is read-only by hand (``ReadOnlyAdmin``): matches change
only through ``games.actions`` and moderation only through
``games.moderation``, reached by the admin actions below (each asks for a
reason and needs its own permission: games.abort_match, games.void_match,
games.change_report for report decisions). A match's seed is never shown
before the match has ended: the field is not in the admin at all, and a
read-only "revealed seed" appears once the match is over. Nor is any other
secret of a live match (README "Moderation"): the engine state only once it
is over, and the move list leaves out the notation of every move the engine
says records something a spectator may not know (``MoveFormSet``).
"""

from django.contrib import admin
from django.forms.models import BaseInlineFormSet
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from games import moderation, record
from games.admin_tools import ReadOnlyAdmin, ReadOnlyInline, ReasonForm, run_with_form
from games.models import AuditLog, Match, Move, RatingChange, RatingVoid, Report, Seat

MATCH_FIELDS = (
    "public_id", "kind", "status", "end_reason", "rated", "is_public", "host", "options",
    "computer_speed", "theme", "turn_seconds", "idle_limit", "version", "ply_count", "deadline",
    "paused_remaining", "seed_hash", "created_at", "started_at", "finished_at", "updated_at",
)


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("index", "colour", "user", "computer_level", "status", "missed_turns", "rank", "joined_at")
    readonly_fields = fields
    show_change_link = False


class MoveFormSet(BaseInlineFormSet):
    """The match's moves, each given ``admin_notation``: its notation, or, while
    the match is live, a placeholder where the engine says the move records
    something a spectator may not know yet (a drawn tile, a face-down colour:
    ``games.record.hidden_plies``). Moderators watch a live match as a
    spectator does (README "Moderation")."""

    def get_queryset(self):
        qs = super().get_queryset()
        if not getattr(self, "_redacted", False):
            self._redacted = True
            moves = list(qs)  # fills the queryset's cache: the forms get these very rows
            hidden = record.hidden_plies(self.instance, moves)
            for m in moves:
                m.admin_notation = HIDDEN_NOTATION if m.ply in hidden else m.notation
        return qs


HIDDEN_NOTATION = "(hidden until the match ends)"


class MoveInline(ReadOnlyInline):
    model = Move
    formset = MoveFormSet
    fields = ("ply", "actor", "seat", "move", "chance_index", "version_after", "created_at")
    readonly_fields = fields
    show_change_link = False

    @admin.display(description="notation")
    def move(self, obj):
        return getattr(obj, "admin_notation", HIDDEN_NOTATION)


class RatingChangeInline(ReadOnlyInline):
    model = RatingChange
    fields = ("user", "kind", "before", "after", "delta", "created")
    readonly_fields = fields
    show_change_link = False


class RatingVoidInline(ReadOnlyInline):
    model = RatingVoid
    fields = ("user", "delta", "rating_before", "rating_after", "games_before", "games_after",
              "peak_before", "peak_after", "voided_by", "reason", "created_at")
    readonly_fields = fields
    show_change_link = False


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ("public_id", "kind", "status", "rated", "players", "created_at", "finished_at", "voided")
    list_filter = ("kind", "status", "rated", "created_at", ("seats__user", admin.RelatedOnlyFieldListFilter))
    search_fields = ("public_id", "seats__user__username")
    date_hierarchy = "created_at"
    exclude = ("seed", "state", "start_state")
    inlines = [SeatInline, RatingChangeInline, RatingVoidInline, MoveInline]
    actions = ["abort_matches", "void_matches"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__user", "rating_voids")

    def get_fields(self, request, obj=None):
        # Never the seed: only the revealed one, once the match has ended.
        # The engine state (it holds every hand) likewise only once it is over.
        if obj is not None and obj.is_over:
            return (*MATCH_FIELDS, "revealed_seed", "state")
        return MATCH_FIELDS

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj)

    @admin.display(description="players")
    def players(self, obj):
        return ", ".join(s.display_name for s in obj.seats.all())

    @admin.display(description="void", boolean=True)
    def voided(self, obj):
        return bool(obj.rating_voids.all()) if obj.rated else None

    def has_abort_permission(self, request):
        return request.user.has_perm("games.abort_match")

    def has_void_permission(self, request):
        return request.user.has_perm("games.void_match")

    @admin.action(description="Abort the selected live matches (no result, no rating)",
                  permissions=["abort"])
    def abort_matches(self, request, queryset):
        return run_with_form(
            self, request, queryset, title="Abort matches", form_class=ReasonForm,
            intro="The matches end with no result and no rating change; their players are told.",
            perform=lambda m, data: moderation.abort_match(request.user, m.public_id, data["reason"]),
            done="{n} match(es) aborted.",
        )

    @admin.action(description="Void the selected rated matches (take their rating changes back)",
                  permissions=["void"])
    def void_matches(self, request, queryset):
        return run_with_form(
            self, request, queryset, title="Void matches", form_class=ReasonForm,
            intro="Each player's recorded change is subtracted from their current rating "
                  "(floor 100), the match leaves their rated-games count and their peak is recomputed.",
            perform=lambda m, data: moderation.void_match(request.user, m.public_id, data["reason"]),
            done="{n} match(es) voided.",
        )


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "match", "before", "after", "delta", "created")
    list_filter = ("kind", "created")
    search_fields = ("user__username", "match__public_id")
    list_select_related = ("user", "match")


@admin.register(RatingVoid)
class RatingVoidAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "match", "delta", "rating_before", "rating_after",
                    "games_after", "peak_after", "voided_by", "created_at")
    list_filter = ("kind", "created_at")
    search_fields = ("user__username", "match__public_id")
    list_select_related = ("user", "match", "voided_by")


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

    @admin.display(description="match")
    def match_link(self, obj):
        url = reverse("admin:games_match_change", args=[obj.match_id])
        return format_html('<a href="{}">{}</a>', url, obj.match.public_id)

    @admin.display(description="decisions")
    def decisions(self, obj):
        rows = AuditLog.objects.filter(action=AuditLog.Action.REPORT, target__startswith=f"report {obj.pk} ")
        return format_html_join(
            "\n", "<p>{} {}: {} {}</p>",
            ((a.created_at.strftime("%Y-%m-%d %H:%M"), a.actor, a.target.split(": ")[-1], a.reason)
             for a in rows.select_related("actor")),
        ) or "–"

    def has_decide_permission(self, request):
        return request.user.has_perm("games.change_report")

    def _decide(self, request, queryset, status, title):
        return run_with_form(
            self, request, queryset, title=title, form_class=DecisionForm,
            perform=lambda r, data: moderation.decide_report(request.user, r, status, data["reason"]),
            done="{n} report(s): " + Report.Status(status).label.lower() + ".",
        )

    @admin.action(description="Mark as reviewing", permissions=["decide"])
    def mark_reviewing(self, request, queryset):
        return self._decide(request, queryset, Report.Status.REVIEWING, "Mark as reviewing")

    @admin.action(description="Mark as actioned", permissions=["decide"])
    def mark_actioned(self, request, queryset):
        return self._decide(request, queryset, Report.Status.ACTIONED, "Mark as actioned")

    @admin.action(description="Dismiss", permissions=["decide"])
    def mark_dismissed(self, request, queryset):
        return self._decide(request, queryset, Report.Status.DISMISSED, "Dismiss")

    @admin.action(description="Reopen", permissions=["decide"])
    def reopen(self, request, queryset):
        return self._decide(request, queryset, Report.Status.OPEN, "Reopen")
