"""Write games' records and state again from their seed and move log
(``games.actions.records.rebuild_records``), each game in its own transaction with its row
locked: safe while the site runs. Exits non-zero when a game's log cannot be replayed (that
game is left as it was)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games.actions.records import BrokenLog, rebuild_records
from games.models import Game


class Command(BaseCommand):
    help = "Write games' records and state again from their move log."

    def add_arguments(self, parser):
        parser.add_argument("game_ids", nargs="*", type=int, metavar="GAME_ID")
        parser.add_argument("--all", action="store_true", dest="every", help="every game")

    def handle(self, *args, game_ids, every, **options):
        if every:
            game_ids = list(Game.objects.order_by("pk").values_list("pk", flat=True))
        elif not game_ids:
            raise CommandError("name games (GAME_ID ...), or --all")
        fixed = broken = 0
        for game_id in game_ids:
            try:
                found = rebuild_records(game_id)
            except Game.DoesNotExist:
                broken += 1
                self.stdout.write(f"game {game_id}: no such game")
                continue
            except BrokenLog as why:
                broken += 1
                self.stdout.write(f"game {game_id}: not rebuilt: {why}")
                continue
            if found:
                fixed += 1
                self.stdout.write(f"game {game_id}: rebuilt, {len(found)} differences fixed")
        rebuilt = len(game_ids) - broken
        summary = f"{rebuilt} games rebuilt: {fixed} of them differed from their replay"
        if broken:
            raise CommandError(f"{summary}; {broken} could not be rebuilt", returncode=1)
        self.stdout.write(summary)
