from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from accounts.models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (*BaseUserAdmin.fieldsets, ("Profile", {"fields": ("bio",)}))
    list_display = ("username", "email", "date_joined", "is_active", "is_staff")
    list_filter = ("is_staff", "is_active", "date_joined")
