"""Users and ratings in the admin (issue 9 "Moderation").

Users: search, filters (joined, banned, staff, active), the user's ratings
inline and, below, their recent matches, reports and audit entries (from
``games.moderation.user_record``); ban or suspend until a date, and unban,
as admin actions with a required reason (``games.moderation``). The ban
fields are never edited by hand. Ratings are read-only everywhere.
"""

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import Q
from django.utils import timezone

from accounts.models import Rating, User
from games.admin_tools import ReadOnlyAdmin, ReadOnlyInline, ReasonForm, run_with_form


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


class BanForm(ReasonForm):
    until = forms.DateTimeField(
        required=False, label="Suspend until",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text="UTC. Leave empty for a permanent ban.",
    )
    field_order = ["until", "reason"]

    def clean_until(self):
        until = self.cleaned_data.get("until")
        if until is not None and until <= timezone.now():
            raise forms.ValidationError("The end of a suspension must be in the future.")
        return until


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
        ("Profile", {"fields": ("bio",)}),
        ("Moderation", {"fields": ("banned_until", "ban_reason")}),
    )
    readonly_fields = ("banned_until", "ban_reason", "last_login", "date_joined")
    list_display = ("username", "email", "date_joined", "is_active", "is_staff", "ban_status")
    list_filter = (BannedFilter, "is_staff", "date_joined", "is_active", "is_superuser")
    search_fields = ("username", "email", "first_name", "last_name")
    inlines = [RatingInline]
    actions = ["ban_users", "unban_users"]
    change_form_template = "admin/accounts/user/change_form.html"

    @admin.display(description="ban")
    def ban_status(self, obj):
        if not obj.is_banned:
            return "–"
        return "banned" if obj.is_banned_forever else f"until {obj.banned_until:%Y-%m-%d %H:%M}"

    def has_ban_permission(self, request):
        return request.user.has_perm("games.ban_user")

    @admin.action(description="Ban or suspend the selected users", permissions=["ban"])
    def ban_users(self, request, queryset):
        from games import moderation

        return run_with_form(
            self, request, queryset, title="Ban or suspend", form_class=BanForm,
            intro="Their live matches count as left, they leave queues and rooms, "
                  "their open pages are disconnected and they cannot log in.",
            perform=lambda user, data: moderation.ban_user(request.user, user, data["until"], data["reason"]),
            done="{n} user(s) banned.",
        )

    @admin.action(description="Unban the selected users", permissions=["ban"])
    def unban_users(self, request, queryset):
        from games import moderation

        return run_with_form(
            self, request, queryset, title="Unban", form_class=ReasonForm,
            perform=lambda user, data: moderation.unban_user(request.user, user, data["reason"]),
            done="{n} user(s) unbanned.",
        )

    def change_view(self, request, object_id, form_url="", extra_context=None):
        from games.moderation import user_record

        user = self.get_object(request, object_id)
        extra = dict(extra_context or {})
        if user is not None:
            extra["record"] = user_record(user)
        return super().change_view(request, object_id, form_url, extra_context=extra)


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "display", "games", "peak", "updated_at")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    list_select_related = ("user",)

    @admin.display(description="rating")
    def display(self, obj):
        return obj.display
