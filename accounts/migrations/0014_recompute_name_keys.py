from django.db import migrations


def recompute_keys(apps, schema_editor):
    """The keys follow the pure-Python skeleton now (confusables 17.0.0, default-ignorables
    removed, i and l one letter): existing players' keys are worked out again so that new names
    are compared with them by the same rule. Names that already clash stay as they are."""
    from accounts.names import name_key

    User = apps.get_model("accounts", "User")
    users = list(User.objects.only("pk", "username", "display_name"))
    for user in users:
        user.username_key = name_key(user.username)
        user.display_name_key = name_key(user.display_name) if user.display_name else ""
    User.objects.bulk_update(users, ["username_key", "display_name_key"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0013_play_forced_cards"),
    ]

    operations = [migrations.RunPython(recompute_keys, migrations.RunPython.noop)]
