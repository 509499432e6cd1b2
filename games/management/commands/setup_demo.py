"""Makes the demo account and the bot players, so that a fresh database can be played at once,
and gives the demo account a finished game to replay and a correspondence game with bots that
waits for its move.

Run again (``make run`` runs it every time), it makes nothing twice: only a new waiting game
when the last one no longer waits for the demo (it ended, or the demo moved and the bots have
not answered yet, or its seat is on autopilot). It does put the demo password back, so the login
it prints always works. The demo's login makes a waiting game too when none is left (outside
production: ``demo_logged_in``). It refuses to run in production: the demo password is
published.

Why the waiting game lasts, and never costs the demo a rating point: it is a correspondence game
at the site's longest time per move (7 days), where the demo has not moved. Its turn runs out
after 7 days: the stand-in bot moves for it (the sweep), the bots answer and the turn waits 7
days again; after the third timeout in a row the seat goes on autopilot and the bots finish the
game. Nobody moved in person after its first round, so the game is not rated
(``games.ratings.played_by_people``). At least 21 days, then, and the next ``make run`` or
login makes a new one (tests/games/test_management.py follows it on an injected clock).

The games are played here, through the one write path (``games.actions``), with no pause: the
bots' moves one after the other in this process, each game in one transaction. What the moves
queue on commit (the bots' next turn, an email) runs in this process too, once the game has
moved past it: it finds nothing to do, and its task log line is left out.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager

# The site's app (nyet_site loads it as Django starts), as games.queue reads it: the games
# import nothing from the project package, which imports their URLs.
from celery import current_app
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.urls import reverse

from accounts.models import User, bot_user
from games import engine
from games.actions import create_game, play_bot_move, submit_move
from games.actions.lobby import TIME_CONTROLS
from games.bots import make_bot
from games.models import Game, Seat

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "nyet-demo"
# The finished game: 3 players to 60 points, a few rounds to replay.
FINISHED_BOTS = ("easy", "medium")
FINISHED_TARGET = 60
# The waiting game: 4 players, the site's longest time per move.
WAITING_BOTS = ("easy", "medium", "medium")
WAITING_MOVE_SECONDS = max(TIME_CONTROLS[Game.TimeControl.CORRESPONDENCE])

log = logging.getLogger(__name__)


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
            # (a new account has no password to check: checking it would hash once for nothing)
            if created or not demo.check_password(DEMO_PASSWORD):
                demo.set_password(DEMO_PASSWORD)
                changed.append("password")
            if changed:
                demo.save(update_fields=changed)
            bots = [bot_user(level) for level in User.BotLevel.values]
        with tasks_here_unlogged():
            finished = finished_game(demo) or new_finished_game(demo)
            waiting = waiting_game(demo) or new_waiting_game(demo)

        site = settings.SITE_URL.rstrip("/")
        self.stdout.write(f"Demo account {'created' if created else 'ready'}. Log in with")
        self.stdout.write(f"  username: {DEMO_USERNAME}")
        self.stdout.write(f"  password: {DEMO_PASSWORD}")
        self.stdout.write(f"at {site}{reverse('login')}")
        self.stdout.write(f"Bot players: {', '.join(bot.username for bot in bots)}")
        self.stdout.write(
            f"Demo games: a finished one to replay at {site}"
            f"{reverse('game_replay', args=[finished.pk])}"
        )
        self.stdout.write(
            f"  and a correspondence one waiting for its move at {site}"
            f"{reverse('game', args=[waiting.pk])}"
        )


def demo_logged_in(sender, request, user, **kwargs) -> None:
    """The demo account logs in (outside production): a game waits for it, made now if none
    does (``user_logged_in``, connected in ``games.apps``). A failure here never stops the
    login: it is logged."""
    if settings.PRODUCTION or user.username != DEMO_USERNAME or user.plays_as_bot:
        return
    try:
        if waiting_game(user) is None:
            new_waiting_game(user)
    except Exception:
        log.exception("could not make a game to wait for the demo account")


@contextmanager
def tasks_here_unlogged():
    """What the moves queue on commit runs in this process, not in a worker (which may not run
    yet, and would find each task's game moved on), and its task log lines are left out:
    one line per bot turn made setup_demo's output 140 lines long. Warnings still show."""
    task_log = logging.getLogger("nyet.tasks")
    eager, level = current_app.conf.task_always_eager, task_log.level
    current_app.conf.task_always_eager = True
    task_log.setLevel(logging.WARNING)
    try:
        yield
    finally:
        current_app.conf.task_always_eager = eager
        task_log.setLevel(level)


def finished_game(demo: User) -> Game | None:
    return (
        Game.objects.filter(seats__user=demo, status=Game.Status.FINISHED).order_by("-pk").first()
    )


def waiting_game(demo: User) -> Game | None:
    """The demo's latest correspondence game in play where its seat must move (itself: not on
    autopilot, nor resigned)."""
    seats = Seat.objects.filter(
        user=demo,
        acting_since__isnull=False,
        autopilot=False,
        game__status=Game.Status.ACTIVE,
        game__time_control=Game.TimeControl.CORRESPONDENCE,
    )
    seat = seats.select_related("game").order_by("-game_id").first()
    return None if seat is None else seat.game


def new_waiting_game(demo: User) -> Game:
    """A correspondence game with bots, dealt, its bots' moves made up to the demo's first turn:
    the demo has made no move in it."""
    with transaction.atomic():
        game = create_game(
            demo,
            players=len(WAITING_BOTS) + 1,
            bots=WAITING_BOTS,
            time_control=Game.TimeControl.CORRESPONDENCE,
            move_seconds=WAITING_MOVE_SECONDS,
        )
        play_bots(game.pk)
    game.refresh_from_db()
    return game


def new_finished_game(demo: User) -> Game:
    """A game played to its end, the demo's seat as a Medium bot would play it (a person's
    moves: a rated game, as one the demo played)."""
    with transaction.atomic():
        game = create_game(demo, players=3, bots=FINISHED_BOTS, target=FINISHED_TARGET)
        seat = 0  # create_game seats its creator first
        while True:
            game.refresh_from_db()
            if game.status == Game.Status.FINISHED:
                return game
            state = engine.state_from_json(game.state)
            if seat not in engine.to_act(state):
                play_bots(game.pk)
                continue
            move = engine.move_to_json(
                make_bot("medium", f"demo/{game.version}").choose(engine.view(state, seat))
            )
            del move["seat"]
            submit_move(demo, game.pk, game.version, move)


def play_bots(game_id: int) -> None:
    """The bots' moves of the game, one after the other, until a person must move or the game
    ends."""
    version = Game.objects.values_list("version", flat=True).get(pk=game_id)
    while (version := play_bot_move(game_id, version)) is not None:
        pass
