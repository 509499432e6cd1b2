"""Bot turns run as a task that takes the game id and the version it expects."""

import pytest

from games import engine
from games.actions import create_game, join_game
from games.models import Game, MoveRecord
from games.tasks import play_bots

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
