"""Users and ratings in the admin (README "Moderation").

Users: search, filters (joined, banned, staff, active) and the user's
ratings inline; moderation/admin.py adds the ban and unban actions and the
user's record (matches, reports, audit entries). The ban fields are never
edited by hand. Ratings are read-only everywhere.
"""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import Q
from django.utils import timezone

from accounts.admin_tools import ReadOnlyAdmin, ReadOnlyInline
from accounts.models import Holiday, Rating, User


class BannedFilter(admin.SimpleListFilter):
    title = "banned"
    parameter_name = "banned"

    def lookups(self, request, model_admin):
        return [("yes", "Banned or suspended"), ("no", "Not banned")]

    def queryset(self, request, queryset):
        now = timezone.now()
        if self.value() == "yes":
            return queryset.filter(banned_until__gt=now)
        if self.value() == "no":
            return queryset.filter(Q(banned_until__isnull=True) | Q(banned_until__lte=now))
        return queryset


class RatingInline(ReadOnlyInline):
    model = Rating
    fields = ("kind", "display", "games", "peak", "updated_at")
    readonly_fields = fields
    show_change_link = False

    @admin.display(description="rating")
    def display(self, obj):
        return obj.display


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        ("Profile", {"fields": ("bio", "email_confirmed", "pending_email")}),
        ("Moderation", {"fields": ("banned_until", "ban_reason")}),
    )
    readonly_fields = ("banned_until", "ban_reason", "last_login", "date_joined", "pending_email")
    list_display = ("username", "email", "email_confirmed", "date_joined", "is_active", "is_staff",
                    "ban_status")
    list_filter = (BannedFilter, "email_confirmed", "is_staff", "date_joined", "is_active", "is_superuser")
    search_fields = ("username", "email", "first_name", "last_name")
    inlines = [RatingInline]

    @admin.display(description="ban")
    def ban_status(self, obj):
        if not obj.is_banned:
            return "–"
        return "banned" if obj.is_banned_forever else f"until {obj.banned_until:%Y-%m-%d %H:%M}"


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "display", "games", "peak", "updated_at")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    list_select_related = ("user",)

    @admin.display(description="rating")
    def display(self, obj):
        return obj.display


@admin.register(Holiday)
class HolidayAdmin(ReadOnlyAdmin):
    """Players' holidays (accounts.holidays), to answer "why did my opponent's clock stop"."""

    list_display = ("user", "starts_on", "ends_on", "starts_at", "ends_at", "created_at")
    search_fields = ("user__username",)
    list_select_related = ("user",)
