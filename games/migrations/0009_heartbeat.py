from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0008_match_computer_due_at'),
    ]

    operations = [
        migrations.CreateModel(
            name='Heartbeat',
            fields=[
                ('name', models.CharField(max_length=16, primary_key=True, serialize=False)),
                ('at', models.DateTimeField()),
                ('down_from', models.DateTimeField(blank=True, null=True)),
                ('up_since', models.DateTimeField(blank=True, null=True)),
            ],
        ),
    ]
