"""One table never holds up another (issue 30): a table left to its bots is played in short
slices queued behind the other tables' work, by a real worker process, as ``make run`` runs it
(one worker, one task at a time, every queue)."""

import os
import signal
import subprocess
import sys

import pytest
import redis

from games import engine
from games.actions import create_game, resign
from games.models import Game, MoveRecord
from tests.servers import ROOT, broker, wait_for

from .conftest import state_of

REDIS = "redis://127.0.0.1:6379/8"


@pytest.fixture
def worker(on_postgres, tmp_path):
    """A real Celery worker on PostgreSQL and the machine's Redis: solo, every queue."""
    from django.db import connection

    redis.Redis.from_url(REDIS).flushdb()  # no task left over from another run
    log = tmp_path / "worker.log"
    env = {
        **os.environ,
        "CELERY_BROKER_URL": REDIS,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "DATABASE_URL": "postgresql://root@127.0.0.1:5432/" + connection.settings_dict["NAME"],
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "nyet_site", "worker", "--pool=solo"]
        + ["--queues=play,think,catchup,email,sweep", "--loglevel=info", "--without-heartbeat"]
        + ["--without-mingle", "--without-gossip"],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        assert wait_for(lambda: "ready." in log.read_text()), log.read_text()
        with broker(REDIS):
            yield log
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def bot_first(person, players: int) -> Game:
    """A table of ``person`` and bots where a bot must move first (its task is queued)."""
    for _ in range(50):
        game = create_game(person, players=players, bots=["medium"] * (players - 1))
        if 0 not in engine.to_act(state_of(game)):
            return game
        Game.objects.filter(pk=game.pk).delete()
    raise AssertionError("no deal with a bot first")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_after_a_resign_another_table_s_bot_moves_before_the_abandoned_game_ends(
    worker, alice, bob
):
    abandoned = create_game(alice, players=3, bots=["medium", "medium"])
    resign(alice, abandoned.pk)  # the bots and the stand-in play the whole game from here
    assert wait_for(lambda: MoveRecord.objects.filter(game=abandoned).count() > 20)
    waiting = bot_first(bob, 2)
    assert wait_for(lambda: MoveRecord.objects.filter(game=waiting, by_bot=True).exists())
    answered = MoveRecord.objects.filter(game=waiting, by_bot=True).earliest("number")
    played_before = MoveRecord.objects.filter(
        game=abandoned, created_at__lt=answered.created_at
    ).count()
    assert wait_for(lambda: Game.objects.get(pk=abandoned.pk).status == Game.Status.FINISHED)
    total = MoveRecord.objects.filter(game=abandoned).count()
    # The whole abandoned game takes hundreds of moves; bob's bot answered while it went on.
    assert total - played_before > 100, (played_before, total)
    log = worker.read_text()
    assert "Task games.tasks.play_bots" in log
