from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0009_chat_settings"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="bot_account",
            field=models.BooleanField(default=False, verbose_name="bot account"),
        ),
    ]
