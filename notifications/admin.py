"""Players' mail settings in the admin (docs/features.md, "E-mail when it is
your turn"): who switched what off, and which addresses bounced. Clearing
the bounced address mails that address again."""

from django.contrib import admin

from notifications.models import MailSettings


@admin.register(MailSettings)
class MailSettingsAdmin(admin.ModelAdmin):
    list_display = ["user", "your_turn", "reminders", "results", "last_digest_at", "bounced_address",
                    "bounced_at"]
    list_filter = ["your_turn", "reminders", "results"]
    search_fields = ["user__username", "user__email", "bounced_address"]
    raw_id_fields = ["user"]
    readonly_fields = ["last_digest_at", "bounced_at", "bounce_reason"]
