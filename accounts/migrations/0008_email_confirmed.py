"""Verified e-mail (docs/features.md "Confirming your e-mail"): every
existing account is marked confirmed (a data step), new sign-ups start
unconfirmed, and e-mail addresses are unique among confirmed ones only."""

import django.db.models.functions.text
from django.db import migrations, models


def confirm_everyone(apps, schema_editor):
    apps.get_model("accounts", "User").objects.update(email_confirmed=True)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_block"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="email_confirmed",
            field=models.BooleanField(default=False, verbose_name="e-mail confirmed"),
        ),
        migrations.RunPython(confirm_everyone, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="user",
            name="email_confirmed",
            field=models.BooleanField(
                default=True,
                help_text="The owner of the address clicked its confirmation link (or a moderator made the account).",
                verbose_name="e-mail confirmed",
            ),
        ),
        migrations.AddField(
            model_name="user",
            name="pending_email",
            field=models.EmailField(blank=True, editable=False, max_length=254,
                                    verbose_name="new e-mail address, waiting for its confirmation"),
        ),
        migrations.RemoveConstraint(model_name="user", name="user_email_ci_unique"),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.UniqueConstraint(
                django.db.models.functions.text.Lower("email"),
                condition=models.Q(("email_confirmed", True), models.Q(("email", ""), _negated=True)),
                name="user_confirmed_email_ci_unique",
                violation_error_message="Another account has this e-mail address, confirmed.",
            ),
        ),
    ]
