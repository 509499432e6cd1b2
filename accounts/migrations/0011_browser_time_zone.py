from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0010_bot_account"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="browser_time_zone",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
    ]
