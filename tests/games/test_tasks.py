"""Tasks take ids and the version they expect, and are safe to run twice or late."""

import pytest
from django.core import mail

from games import engine
from games.actions import create_game, join_game
from games.models import Game, MoveRecord, PendingEmail
from games.tasks import play_bots, play_timeouts, send_email

pytestmark = pytest.mark.django_db


def bots_first_game(act, alice, bob):
    """A 3-seat game whose bot must act first, started without running on-commit work."""
    for _ in range(50):
        game = create_game(alice, players=3, bots=[None, "easy"])  # no act(): nothing queued
        join_game(bob, game.pk)
        game.refresh_from_db()
        state = engine.state_from_json(game.state)
        if engine.to_act(state) == (2,):
            return game
        Game.objects.filter(pk=game.pk).delete()
    raise AssertionError("no deal with the bot first")


def test_the_task_plays_the_bot_once_and_is_safe_to_run_twice_or_late(act, alice, bob):
    game = bots_first_game(act, alice, bob)
    version = game.version
    assert play_bots.delay(game.pk, version).get() == 1
    game.refresh_from_db()
    assert game.version == version + 1
    assert MoveRecord.objects.filter(game=game, by_bot=True).count() == 1
    # the same task again, or late: the game has moved on, nothing happens
    assert play_bots.delay(game.pk, version).get() == 0
    assert play_bots.delay(game.pk, version + 5).get() == 0
    assert play_bots.delay(999999, 1).get() == 0
    game.refresh_from_db()
    assert game.version == version + 1


def test_a_person_s_turn_stops_the_task(act, alice, bob):
    game = bots_first_game(act, alice, bob)
    play_bots(game.pk, game.version)
    game.refresh_from_db()
    assert play_bots(game.pk, game.version) == 0


def test_the_timeout_task_is_safe_to_run_twice_or_late(act, alice, clock):
    game = act(create_game, alice, players=2, bots=["easy"], move_seconds=300)
    game.refresh_from_db()  # the bot may have moved first
    version = game.version
    clock.advance(minutes=6)
    before = MoveRecord.objects.filter(game=game).count()
    made = play_timeouts(game.pk, version)
    game.refresh_from_db()
    moved = MoveRecord.objects.filter(game=game).count()
    assert made == moved - before >= 1, "the stand-in's move, then the bot's in the same task"
    assert MoveRecord.objects.filter(game=game, timeout=True).count() == 1
    assert play_timeouts(game.pk, version) == 0
    assert play_timeouts(game.pk, game.version) == 0, "the new deadline is not due yet"
    assert MoveRecord.objects.filter(game=game).count() == moved


def test_the_email_task_is_safe_to_run_twice(alice, bob):
    game = create_game(alice, players=2)
    join_game(bob, game.pk)  # the test's transaction never commits: nothing is queued
    (pending,) = PendingEmail.objects.all()
    assert send_email(pending.pk) is True
    assert send_email(pending.pk) is False
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]
