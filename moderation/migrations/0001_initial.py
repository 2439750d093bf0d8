"""AuditLog and Report move here from the games app (README "Moderation").

Their tables stay as they are (``db_table``: games_auditlog, games_report)
and no row is copied: this migration only adds the models to this app's
state (games/migrations/0007 takes them out of the games app's state) and
moves their content types to the ``moderation`` label, so every permission
keeps its row and the Moderators group keeps exactly its rights (the custom
permissions are now ``moderation.ban_user`` and so on).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = ["auditlog", "report"]


def move_content_types(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="games", model__in=MOVED).update(app_label="moderation")


def move_content_types_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="moderation", model__in=MOVED).update(app_label="games")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("games", "0006_match_deadline_task_at"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='AuditLog',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('action', models.CharField(choices=[('ban', 'Ban'), ('unban', 'Unban'), ('abort', 'Abort match'), ('void', 'Void match'), ('report', 'Report decision'), ('revoke_invite', 'Revoke invite')], max_length=16)),
                        ('target', models.CharField(blank=True, max_length=200, verbose_name='object')),
                        ('reason', models.TextField(blank=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True, db_index=True)),
                        ('actor', models.ForeignKey(help_text='The moderator.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('target_user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='audit_entries', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'verbose_name': 'audit log entry',
                        'verbose_name_plural': 'audit log',
                        'db_table': 'games_auditlog',
                        'ordering': ['-created_at', '-pk'],
                        'permissions': [('ban_user', 'Can ban, suspend and unban users'), ('abort_match', 'Can abort a live match'), ('void_match', 'Can void a finished rated match'), ('revoke_invite', 'Can revoke a room invite')],
                    },
                ),
                migrations.CreateModel(
                    name='Report',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('reason', models.CharField(choices=[('abuse', 'Abusive or offensive chat'), ('cheating', 'Cheating or collusion'), ('stalling', 'Stalling or leaving on purpose'), ('name', 'Offensive username'), ('other', 'Something else')], max_length=16)),
                        ('note', models.TextField(blank=True, help_text='Seen only by staff.', max_length=1000)),
                        ('status', models.CharField(choices=[('open', 'Open'), ('reviewing', 'Reviewing'), ('actioned', 'Actioned'), ('dismissed', 'Dismissed')], default='open', max_length=10)),
                        ('decided_at', models.DateTimeField(blank=True, null=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('decided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='reports', to='games.match')),
                        ('reported_user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='reports_received', to=settings.AUTH_USER_MODEL)),
                        ('reporter', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='reports_made', to=settings.AUTH_USER_MODEL)),
                        ('seat', models.ForeignKey(help_text='The reported seat.', on_delete=django.db.models.deletion.CASCADE, related_name='reports', to='games.seat')),
                    ],
                    options={
                        'db_table': 'games_report',
                        'ordering': ['-created_at', '-pk'],
                        'indexes': [models.Index(fields=['status', '-created_at'], name='report_queue')],
                        'constraints': [models.UniqueConstraint(fields=('reporter', 'match', 'seat'), name='report_once_per_seat')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
