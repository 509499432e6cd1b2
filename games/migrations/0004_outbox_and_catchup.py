from django.db import migrations, models
from django.db.models import F


def due_when_created(apps, schema_editor):
    apps.get_model("games", "PendingEmail").objects.update(due_at=F("created_at"))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_pending_email"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="catchup_queued_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="catchup_attempts",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="pendingemail",
            name="due_at",
            field=models.DateTimeField(null=True),
        ),
        migrations.RunPython(due_when_created, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="pendingemail",
            name="due_at",
            field=models.DateTimeField(db_index=True),
        ),
        migrations.AddField(
            model_name="pendingemail",
            name="queued_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="pendingemail",
            name="claimed_until",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="vacation",
            name="warned_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="pendingemail",
            name="attempts",
            field=models.PositiveSmallIntegerField(default=0),
        ),
    ]
