"""Users and ratings in the admin (README "Moderation").

Users: search, filters (joined, banned, staff, active) and the user's
ratings inline; moderation/admin.py adds the ban and unban actions and the
user's record (matches, reports, audit entries). The ban fields are never
edited by hand, nor is ``is_bot`` (shown and filterable; only
``accounts.tokens.make_bot`` sets it). Ratings are read-only everywhere.
API tokens are listed read-only, with one action, Revoke
(``accounts.tokens.revoke``); their text is never stored, their digest never shown.
"""

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from accounts import tokens
from accounts.admin_tools import ReadOnlyAdmin, ReadOnlyInline
from accounts.models import ApiToken, Holiday, Rating, User


class BannedFilter(admin.SimpleListFilter):
    title = gettext_lazy("banned")
    parameter_name = "banned"

    def lookups(self, request, model_admin):
        return [("yes", _("Banned or suspended")), ("no", _("Not banned"))]

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

    @admin.display(description=gettext_lazy("rating"))
    def display(self, obj):
        return obj.display


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        (gettext_lazy("Profile"), {"fields": ("bio", "email_confirmed", "pending_email", "is_bot")}),
        (gettext_lazy("Moderation"), {"fields": ("banned_until", "ban_reason")}),
    )
    readonly_fields = ("banned_until", "ban_reason", "last_login", "date_joined", "pending_email", "is_bot")
    list_display = ("username", "email", "email_confirmed", "date_joined", "is_active", "is_staff",
                    "is_bot", "ban_status")
    list_filter = (BannedFilter, "email_confirmed", "is_bot", "is_staff", "date_joined", "is_active",
                   "is_superuser")
    search_fields = ("username", "email", "first_name", "last_name")
    inlines = [RatingInline]

    @admin.display(description=gettext_lazy("ban"))
    def ban_status(self, obj):
        if not obj.is_banned:
            return "–"
        return (_("banned") if obj.is_banned_forever
                else _("until %(when)s") % {"when": f"{obj.banned_until:%Y-%m-%d %H:%M}"})


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "display", "games", "peak", "updated_at")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    list_select_related = ("user",)

    @admin.display(description=gettext_lazy("rating"))
    def display(self, obj):
        return obj.display


@admin.register(Holiday)
class HolidayAdmin(ReadOnlyAdmin):
    """Players' holidays (accounts.holidays), to answer "why did my opponent's clock stop"."""

    list_display = ("user", "starts_on", "ends_on", "starts_at", "ends_at", "created_at")
    search_fields = ("user__username",)
    list_select_related = ("user",)


class LiveFilter(admin.SimpleListFilter):
    title = gettext_lazy("revoked")
    parameter_name = "revoked"

    def lookups(self, request, model_admin):
        return [("no", pgettext("token", "Live")), ("yes", pgettext("token", "Revoked"))]

    def queryset(self, request, queryset):
        if self.value() == "no":
            return queryset.filter(revoked_at=None)
        if self.value() == "yes":
            return queryset.exclude(revoked_at=None)
        return queryset


@admin.register(ApiToken)
class ApiTokenAdmin(ReadOnlyAdmin):
    """Players' API tokens (docs/api.md "Tokens"): who holds which, used
    when; Revoke closes a leaked or abused one's streams at once. The digest
    is not shown (it names the token to anyone holding a guess)."""

    list_display = ("user", "name", "shown_prefix", "scopes", "created_at", "last_used_at", "revoked_at")
    list_filter = (LiveFilter, "scopes", "user__is_bot")
    search_fields = ("user__username", "name", "prefix")
    list_select_related = ("user",)
    fields = ("user", "name", "shown_prefix", "scopes", "created_at", "last_used_at", "revoked_at")
    readonly_fields = fields
    actions = ["revoke_tokens"]

    @admin.display(description=gettext_lazy("token"))
    def shown_prefix(self, obj):
        return f"{obj.prefix}…"

    def has_revoke_permission(self, request):
        return request.user.has_perm("accounts.change_apitoken")

    @admin.action(description=gettext_lazy("Revoke the selected tokens"), permissions=["revoke"])
    def revoke_tokens(self, request, queryset):
        revoked = 0
        for token in queryset.select_related("user"):
            if token.revoked_at is None:
                tokens.revoke(token.user, token.pk)
                revoked += 1
        self.message_user(request, ngettext("%(n)d token revoked.", "%(n)d tokens revoked.", revoked)
                          % {"n": revoked}, messages.SUCCESS)
