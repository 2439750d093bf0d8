from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0007_moderation_models_moved'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='computer_due_at',
            field=models.DateTimeField(blank=True, editable=False, help_text="When the sweeper sends the computer's move again if it has not been played.", null=True),
        ),
        migrations.AddIndex(
            model_name='match',
            index=models.Index(fields=['status', 'computer_due_at'], name='match_computer_due'),
        ),
    ]
