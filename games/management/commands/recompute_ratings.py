"""Rebuild every rating from the finished games (after a change to the rating rules, or to
rate games that finished before ratings existed)."""

from django.core.management.base import BaseCommand

from games.ratings import recompute_ratings


class Command(BaseCommand):
    help = "Rebuild every rating from the finished games, in the order they ended."

    def handle(self, *args, **options):
        count = recompute_ratings()
        self.stdout.write(f"Rated {count} finished games.")
