"""One move at a time per game, even when fifty copies of it arrive at once (PostgreSQL)."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from games import engine
from games.actions import ActionError, create_game, join_game, submit_move
from games.models import BoardToken, MoveRecord

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
COPIES = 50


def test_fifty_concurrent_copies_of_a_move_apply_exactly_once(on_postgres, alice, bob):
    game = create_game(alice, players=2)
    join_game(bob, game.pk)
    game.refresh_from_db()
    state = engine.state_from_json(game.state)
    mover = alice if engine.to_act(state) == (game.seats.get(user=alice).position,) else bob
    version = game.version
    barrier = threading.Barrier(COPIES)

    def submit(_):
        barrier.wait()
        try:
            submit_move(mover, game.pk, version, {"token": ["trump", "R"]})
            return "applied"
        except ActionError as refusal:
            return refusal.code
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=COPIES) as pool:
        outcomes = list(pool.map(submit, range(COPIES)))

    assert outcomes.count("applied") == 1
    assert set(outcomes) == {"applied", "stale"}
    game.refresh_from_db()
    assert game.version == version + 1
    assert MoveRecord.objects.filter(game=game).count() == 1
    assert BoardToken.objects.filter(round__game=game).count() == 1
