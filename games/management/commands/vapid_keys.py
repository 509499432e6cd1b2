"""A new VAPID key pair for Web Push (games/push.py): printed as the two environment variables
production sets, or (``--write-dev-file``) kept in the development file that the settings read
when those variables are unset, which `make run` asks for before it starts the site."""

import json
import os

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.push import generate_keys


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push, as VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY."

    def add_arguments(self, parser):
        parser.add_argument(
            "--write-dev-file",
            action="store_true",
            help="Write the pair to the development file (VAPID_DEV_FILE) if there is none: "
            "every browser subscribed with the old pair would have to subscribe again.",
        )

    def handle(self, *args, **options):
        public, private = generate_keys()
        if not options["write_dev_file"]:
            self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}")
            return
        if settings.PRODUCTION:
            raise CommandError("Production never reads the development file: set the variables.")
        path = settings.VAPID_DEV_FILE
        keys = {"VAPID_PUBLIC_KEY": public, "VAPID_PRIVATE_KEY": private}
        try:
            # Created, never replaced (two `make run` at once: one writes it); readable by its
            # owner alone, as a private key should be.
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            self.stdout.write(f"{path} is there already: kept.")
            return
        with os.fdopen(descriptor, "w") as file:
            json.dump(keys, file, indent=2)
            file.write("\n")
        self.stdout.write(f"Wrote a new VAPID key pair to {path} (for development only).")
