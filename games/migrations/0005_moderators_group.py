"""The "Moderators" group (README "Moderation"): just the permissions moderation needs.

A moderator is a staff user (``is_staff``) in this group; superusers have
every permission anyway. The permissions are created here first (Django
creates them only after all migrations otherwise).
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Moderators"
PERMISSIONS = [
    ("accounts", "view_user"),
    ("accounts", "view_rating"),
    ("games", "view_match"),
    ("games", "view_seat"),
    ("games", "view_move"),
    ("games", "view_ratingchange"),
    ("games", "view_ratingvoid"),
    ("games", "view_auditlog"),
    ("games", "view_report"),
    ("games", "change_report"),
    ("games", "ban_user"),
    ("games", "abort_match"),
    ("games", "void_match"),
    ("games", "revoke_invite"),
    ("matchmaking", "view_room"),
    ("matchmaking", "view_roomseat"),
    ("matchmaking", "view_roommember"),
    ("matchmaking", "view_invite"),
    ("matchmaking", "view_queueentry"),
]


def create_group(apps, schema_editor):
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    perms = [Permission.objects.get(content_type__app_label=app, codename=codename)
             for app, codename in PERMISSIONS]
    group.permissions.set(perms)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_moderation"),
        ("accounts", "0003_user_ban"),
        ("matchmaking", "0002_queue_entry"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
