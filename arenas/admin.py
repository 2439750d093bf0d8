"""Arenas and schedules in the admin (README "Arenas"): staff create one-off
arenas and recurring schedules; players, matches and results are read-only
(disqualifying a player is moderation/admin.py's, audit-logged)."""

from django import forms
from django.contrib import admin
from django.utils import timezone

from accounts.admin_tools import ReadOnlyAdmin, ReadOnlyInline
from arenas.models import Arena, ArenaMatch, ArenaPlayer, ArenaSchedule
from games.admin import KIND_FILTER
from games.models import GameKindField

#: The game as a list of the games registered (the admin gives a CharField a text box).
GAME_SELECT = {GameKindField: {"widget": forms.Select}}

SETTINGS = ("name", "kind", "seats", "turn_seconds", "minutes", "rated", "rated_from_players",
            "rated_meetings", "max_players")


@admin.register(ArenaSchedule)
class ArenaScheduleAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "seats", "every_minutes", "minutes", "first_start", "active")
    list_filter = (KIND_FILTER, "active")
    fields = (*SETTINGS, "first_start", "every_minutes", "active")
    formfield_overrides = GAME_SELECT

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)
        if change:
            # Its announced arenas that nobody joined yet are made again by the wave
            # from the new settings (or not at all once inactive), so a moved start
            # never leaves two series side by side; those with players stand.
            Arena.objects.filter(schedule=obj, starts_at__gt=timezone.now(), players__isnull=True).delete()


class ArenaPlayerInline(ReadOnlyInline):
    model = ArenaPlayer
    fields = ("user", "status", "points", "wins", "sequence", "joined_at")
    readonly_fields = fields
    ordering = ("-points",)


class ArenaMatchInline(ReadOnlyInline):
    model = ArenaMatch
    fields = ("match", "scored", "created_at")
    readonly_fields = fields


@admin.register(Arena)
class ArenaAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "seats", "starts_at", "minutes", "rated", "closed_at", "finished_at")
    list_filter = (KIND_FILTER, "rated")
    fields = (*SETTINGS, "starts_at", "schedule", "closed_at", "finished_at")
    readonly_fields = ("schedule", "closed_at", "finished_at")
    formfield_overrides = GAME_SELECT
    inlines = [ArenaPlayerInline, ArenaMatchInline]


@admin.register(ArenaPlayer)
class ArenaPlayerAdmin(ReadOnlyAdmin):
    list_display = ("user", "arena", "status", "points", "wins", "sequence")
    list_filter = ("status",)
    search_fields = ("user__username", "arena__name")
    list_select_related = ("user", "arena")
