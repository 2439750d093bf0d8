"""Rooms, invites and queue entries in the admin (README "Moderation"):
read-only lists; moderation/admin.py adds revoking an invite (with a reason,
recorded in the audit log). Invite tokens are never stored, so never shown."""

from django.contrib import admin
from django.utils import timezone
from django.utils.translation import gettext_lazy

from accounts.admin_tools import ReadOnlyAdmin, ReadOnlyInline
from games.admin import KIND_FILTER
from matchmaking.models import Invite, QueueEntry, Room, RoomMember, RoomSeat, TurnBasedEntry


class RoomSeatInline(ReadOnlyInline):
    model = RoomSeat
    fields = ("index", "user", "computer_level")
    readonly_fields = fields
    show_change_link = False


class RoomMemberInline(ReadOnlyInline):
    model = RoomMember
    fields = ("user", "status", "joined_at")
    readonly_fields = fields
    show_change_link = False


class InviteInline(ReadOnlyInline):
    model = Invite
    fields = ("created_by", "created_at", "expires_at", "used_by", "used_at", "revoked_at")
    readonly_fields = fields


@admin.register(Room)
class RoomAdmin(ReadOnlyAdmin):
    list_display = ("code", "kind", "status", "host", "match", "created_at")
    list_filter = ("kind", "status", "created_at")
    search_fields = ("code", "host__username", "members__user__username")
    list_select_related = ("host", "match")
    inlines = [RoomSeatInline, RoomMemberInline, InviteInline]


class InviteStateFilter(admin.SimpleListFilter):
    title = gettext_lazy("state")
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return Invite.State.choices

    def queryset(self, request, queryset):
        now = timezone.now()
        value = self.value()
        if value == Invite.State.REVOKED:
            return queryset.filter(revoked_at__isnull=False)
        if value == Invite.State.USED:
            return queryset.filter(revoked_at__isnull=True, used_at__isnull=False)
        if value == Invite.State.EXPIRED:
            return queryset.filter(revoked_at__isnull=True, used_at__isnull=True, expires_at__lte=now)
        if value == Invite.State.UNUSED:
            return queryset.filter(revoked_at__isnull=True, used_at__isnull=True, expires_at__gt=now)
        return queryset


@admin.register(Invite)
class InviteAdmin(ReadOnlyAdmin):
    list_display = ("pk", "room", "state_label", "created_by", "created_at", "expires_at", "used_by")
    list_filter = (InviteStateFilter, "created_at")
    search_fields = ("room__code", "created_by__username", "used_by__username")
    list_select_related = ("room", "created_by", "used_by")
    exclude = ("token_hash",)

    @admin.display(description=gettext_lazy("state"))
    def state_label(self, obj):
        return Invite.State(obj.state()).label


@admin.register(QueueEntry)
class QueueEntryAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "players", "rating", "joined_at", "match")
    list_filter = (KIND_FILTER, "players")
    search_fields = ("user__username",)


@admin.register(TurnBasedEntry)
class TurnBasedEntryAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "players", "days", "rating", "joined_at")
    list_filter = (KIND_FILTER, "players", "days")
    search_fields = ("user__username",)
    list_select_related = ("user", "match")
