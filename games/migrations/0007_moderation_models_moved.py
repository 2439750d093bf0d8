"""AuditLog and Report leave the games app's state for the moderation app
(moderation/migrations/0001_initial.py); their tables and rows stay."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0006_match_deadline_task_at"),
        ("moderation", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="AuditLog"),
                migrations.DeleteModel(name="Report"),
            ],
            database_operations=[],
        ),
    ]
