"""Redis away (the cache that counts rate limits, and the broker): players notice nothing but a
bot that answers later. Logging in, resetting a password, the game page and a move all work;
the site tries Redis once, then leaves it alone for a few seconds instead of waiting for a
timeout on every call; the bot turns and the emails catch up through the sweep once Redis is
back (issue 11, defect 7)."""

import logging
import time

import pytest
from django.core import mail
from django.urls import reverse

from games import engine, queue
from games.actions import create_game
from games.actions.deadlines import due
from games.models import Game, MoveRecord
from tests.conftest import PASSWORD
from tests.servers import broker

from .conftest import state_of

pytestmark = pytest.mark.django_db
CLOSED = "redis://127.0.0.1:1/0"  # nothing listens there


@pytest.fixture
def redis_down(settings):
    from common import cache as resilient

    settings.CACHES = {
        "default": {
            "BACKEND": "common.cache.ResilientRedisCache",
            "LOCATION": CLOSED,
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.5},
        }
    }
    resilient.reset()
    queue.broker_back()
    with broker(CLOSED):
        yield
    resilient.reset()
    queue.broker_back()


def person_first_game(alice):
    for _ in range(50):
        game = create_game(alice, players=2, bots=["easy"], move_seconds=600)
        if engine.to_act(state_of(game)) == (0,):
            return game
        Game.objects.filter(pk=game.pk).delete()
    raise AssertionError("no deal with the person first")


def test_with_redis_down_logging_in_the_game_and_a_move_work_and_catch_up_later(
    client, alice, clock, caplog, django_capture_on_commit_callbacks, redis_down
):
    game = person_first_game(alice)
    with caplog.at_level(logging.WARNING):
        response = client.post(reverse("account_login"), {"login": "alice", "password": "wrong"})
        assert response.status_code == 200 and "not correct" in response.content.decode()
        response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
        assert response.status_code == 302
        response = client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
        assert response.status_code == 302
        assert client.get(reverse("game", args=[game.pk])).status_code == 200
        move = engine.view(state_of(game), 0)["legal"][0]
        kind, arg = next((k, v) for k, v in move.items() if k != "seat")
        data = {"version": game.version, "kind": kind}
        data.update({"box": ":".join(arg)} if kind == "token" else {"card": arg})
        started = time.perf_counter()
        with django_capture_on_commit_callbacks(execute=True):  # the move, then its publish
            response = client.post(reverse("game_move", args=[game.pk]), data)
        took = time.perf_counter() - started
        assert response.status_code == 302
        assert took < 1, f"the move and its try at the broker took {took:.2f} s"
        assert client.get(reverse("lobby")).status_code == 200
    assert MoveRecord.objects.filter(game=game, by_bot=False).count() == 1, "the move stands"
    # Redis was tried once by the cache and once by the broker, not on every call.
    assert caplog.text.count("the cache at redis://127.0.0.1:1/0 is unreachable") == 1
    assert caplog.text.count("the broker is unreachable") == 1
    assert not MoveRecord.objects.filter(game=game, by_bot=True).exists(), "the bot waits"

    queue.broker_back()
    with broker(None):  # Redis is back (tasks run in-process again)
        clock.advance(minutes=1)
        with django_capture_on_commit_callbacks(execute=True):
            found = due()
    assert found["stalled"] == 1
    assert MoveRecord.objects.filter(game=game, by_bot=True).exists(), "the bot has answered"
    assert [m.subject for m in mail.outbox] == ["[Nyet!] Password Reset Email"]
