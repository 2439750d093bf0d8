import games.models
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0009_heartbeat'),
    ]

    operations = [
        migrations.AlterField(
            model_name='match',
            name='kind',
            field=games.models.GameKindField(max_length=16),
        ),
        migrations.AlterField(
            model_name='ratingchange',
            name='kind',
            field=games.models.GameKindField(max_length=16),
        ),
        migrations.AlterField(
            model_name='ratingvoid',
            name='kind',
            field=games.models.GameKindField(max_length=16),
        ),
    ]
