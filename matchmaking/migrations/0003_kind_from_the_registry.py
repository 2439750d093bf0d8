import games.models
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('matchmaking', '0002_queue_entry'),
    ]

    operations = [
        migrations.AlterField(
            model_name='queueentry',
            name='kind',
            field=games.models.GameKindField(max_length=16),
        ),
    ]
