"""Makes the demo account and the bot players, so that a fresh database can be played at once.

Run again, it makes nothing twice. It does put the demo password back, so the login it prints
always works. It refuses to run in production: the demo password is published.
"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.urls import reverse

from accounts.models import User, bot_user

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "nyet-demo"


class Command(BaseCommand):
    help = "Make the demo account (demo / nyet-demo) and one bot player per level."

    def handle(self, *args, **options):
        if settings.PRODUCTION:
            raise CommandError("setup_demo publishes its password: it does not run in production.")
        with transaction.atomic():
            demo, created = User.objects.get_or_create(username=DEMO_USERNAME)
            changed = []
            if not demo.is_active:
                demo.is_active = True
                changed.append("is_active")
            if not demo.check_password(DEMO_PASSWORD):
                demo.set_password(DEMO_PASSWORD)
                changed.append("password")
            if changed:
                demo.save(update_fields=changed)
            bots = [bot_user(level) for level in User.BotLevel.values]

        self.stdout.write(f"Demo account {'created' if created else 'ready'}. Log in with")
        self.stdout.write(f"  username: {DEMO_USERNAME}")
        self.stdout.write(f"  password: {DEMO_PASSWORD}")
        self.stdout.write(f"at {reverse('login')}")
        self.stdout.write(f"Bot players: {', '.join(bot.username for bot in bots)}")
