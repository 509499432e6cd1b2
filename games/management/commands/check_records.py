"""Compare games' stored state and records with the replay of their seed and move log
(``games.actions.records.check_records``). Writes nothing; exits non-zero when a game differs,
which ``manage.py rebuild_records`` then writes again."""

from __future__ import annotations

from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError

from games import clock
from games.actions.records import check_records, finished_since
from games.models import Game

# A game whose every row differs would fill the screen: its first lines say enough.
SHOWN = 5


class Command(BaseCommand):
    help = "Compare games' state and records with the replay of their move log."

    def add_arguments(self, parser):
        parser.add_argument("game_ids", nargs="*", type=int, metavar="GAME_ID")
        which = parser.add_mutually_exclusive_group()
        which.add_argument("--all", action="store_true", dest="every", help="every game")
        which.add_argument(
            "--since", type=float, metavar="HOURS", help="the games finished in the last HOURS"
        )

    def handle(self, *args, game_ids, every, since, **options):
        if every:
            game_ids = list(Game.objects.order_by("pk").values_list("pk", flat=True))
        elif since is not None:
            game_ids = finished_since(clock.now() - timedelta(hours=since))
        elif not game_ids:
            raise CommandError("name games (GAME_ID ...), or --all, or --since HOURS")
        differ = 0
        for game_id in game_ids:
            try:
                found = check_records(game_id)
            except Game.DoesNotExist:
                found = ["no such game"]
            if found:
                differ += 1
                more = f"; and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
                self.stdout.write(f"game {game_id}: " + "; ".join(found[:SHOWN]) + more)
        if differ:
            raise CommandError(
                f"{differ} of {len(game_ids)} games differ from their replay"
                " (manage.py rebuild_records GAME_ID writes them again)",
                returncode=1,
            )
        self.stdout.write(f"{len(game_ids)} games checked: all agree with their replay")
