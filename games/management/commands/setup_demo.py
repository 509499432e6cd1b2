"""Makes the demo account and the bot players, so that a fresh database can be played at once,
and gives the demo account a finished game to replay and a game in progress.

Run again, it makes nothing twice. It does put the demo password back, so the login it prints
always works. It refuses to run in production: the demo password is published.
"""

from contextlib import contextmanager

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.urls import reverse

from accounts.models import User, bot_user
from games import engine
from games.actions import create_game, play_bot_move, submit_move
from games.bots import make_bot
from games.models import Game
from nyet_site.celery import app

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
        for line in demo_games(demo):
            self.stdout.write(line)


@contextmanager
def bots_answer_at_once():
    """Bot turns run here and now rather than in a worker, which may not run yet."""
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = before


def play_for(game: Game, person: User, until) -> None:
    """The person's moves, as an Easy bot would choose them, until ``until(state)`` holds on
    their turn, or the game ends. The bots answer each move."""
    seat = game.seats.get(user=person).position
    while True:
        game.refresh_from_db()
        state = engine.state_from_json(game.state)
        if game.status == Game.Status.FINISHED:
            return
        if seat not in engine.to_act(state):
            # The bots' turn, when their task has not played it (inside a transaction that
            # has not committed, as in the tests): the same action plays it.
            play_bot_move(game.pk, game.version)
            continue
        if until(state):
            return
        move = engine.move_to_json(
            make_bot("easy", f"demo/{game.version}").choose(engine.view(state, seat))
        )
        del move["seat"]
        submit_move(person, game.pk, game.version, move)


def demo_games(demo: User) -> list[str]:
    """A finished game to replay (3 players, to 60 points) and a game in play at round 2
    (4 players), each made once."""
    games = Game.objects.filter(seats__user=demo)
    with bots_answer_at_once():
        if not games.filter(status=Game.Status.FINISHED).exists():
            finished = create_game(demo, players=3, bots=["easy", "medium"], target=60)
            play_for(finished, demo, until=lambda state: False)
        if not games.filter(status=Game.Status.ACTIVE).exists():
            playing = create_game(demo, players=4, bots=["easy", "medium", "medium"])
            play_for(playing, demo, until=lambda state: state.round == 2 and state.tricks)
    finished = games.filter(status=Game.Status.FINISHED).order_by("-pk").first()
    playing = games.filter(status=Game.Status.ACTIVE).order_by("-pk").first()
    return [
        f"Demo games: a finished one to replay at {reverse('game_replay', args=[finished.pk])}",
        f"  and one in play at {reverse('game', args=[playing.pk])}",
    ]
