"""The Moderators group may disqualify arena players and see arenas (README "Arenas", Moderation)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Moderators"
PERMISSIONS = [
    ("moderation", "disqualify_arena_player"),
    ("arenas", "view_arena"),
    ("arenas", "view_arenaschedule"),
    ("arenas", "view_arenaplayer"),
    ("arenas", "view_arenamatch"),
]


def grant(apps, schema_editor):
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(*[Permission.objects.get(content_type__app_label=app, codename=codename)
                            for app, codename in PERMISSIONS])


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name=GROUP).first()
    if group is not None:
        group.permissions.remove(*Permission.objects.filter(
            content_type__app_label__in=["arenas", "moderation"],
            codename__in=[c for _, c in PERMISSIONS]))


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0002_alter_auditlog_options_alter_auditlog_action"),
        ("arenas", "0001_initial"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
