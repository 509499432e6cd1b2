from django.core.management import call_command


def test_every_model_change_has_its_migration(db):
    # Exits non-zero (SystemExit) when a model changed without a migration.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
