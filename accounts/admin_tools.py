"""Read-only model admins for records that change only through actions
(ratings, matches, rooms, the audit log): used by every app's admin."""

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    """Nothing added, changed or deleted by hand: records written only by actions."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
