"""A worker outlives its broker: the Procfile's `play` worker, on PostgreSQL and a Redis server of
this test's own, goes on when Redis is killed and started again, and plays a bot's move queued
after Redis came back (PostgreSQL + the redis-server program; CI installs it)."""

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis as redis_client

from games import engine
from games.actions import create_game
from games.models import Game, MoveRecord
from tests.servers import ROOT, broker, free_port, procfile, wait_for

from .conftest import state_of

OUTAGE = 4  # seconds without Redis: the worker tries again every second meanwhile


def redis_server(port: int, log: Path) -> subprocess.Popen:
    """A Redis that keeps nothing on disk: killed, it comes back empty, as after a crash."""
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
        + ["--appendonly", "no"],
        stdout=log.open("a"),
        stderr=subprocess.STDOUT,
    )
    client = redis_client.Redis(port=port, socket_connect_timeout=0.5)
    assert wait_for(lambda: _answers(client), seconds=10), log.read_text()
    return server


def _answers(client) -> bool:
    try:
        return client.ping()
    except redis_client.ConnectionError:
        return False


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")
def test_the_play_worker_goes_on_after_redis_was_killed_and_came_back(on_postgres, alice, tmp_path):
    from django.db import connection

    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    redis_log, log = tmp_path / "redis.log", tmp_path / "worker.log"
    server = redis_server(port, redis_log)
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",  # the Procfile's celery
        "CELERY_BROKER_URL": url,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "DATABASE_URL": "postgresql://root@127.0.0.1:5432/" + connection.settings_dict["NAME"],
        "PLAY_CONCURRENCY": "1",
    }
    worker = subprocess.Popen(
        procfile("Procfile")["play"],
        shell=True,
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        assert wait_for(lambda: " ready." in log.read_text(), seconds=60), log.read_text()

        server.kill()  # a crash: every message in Redis is lost with it
        server.wait()
        lost = wait_for(lambda: "Cannot connect to redis" in log.read_text(), seconds=10)
        assert lost, log.read_text()
        time.sleep(OUTAGE)
        assert worker.poll() is None, log.read_text()
        server = redis_server(port, redis_log)
        back = wait_for(lambda: log.read_text().count("Connected to redis") == 2, seconds=5)
        assert back, "the worker did not reconnect within 5 s:\n" + log.read_text()

        with broker(url):
            for _ in range(50):  # a deal where the bot moves first: its task is queued at once
                game = create_game(alice, players=2, bots=["easy"])
                if engine.to_act(state_of(game)) == (1,):
                    break
                Game.objects.filter(pk=game.pk).delete()
            played = wait_for(lambda: MoveRecord.objects.filter(game=game).exists(), seconds=15)
        assert played, "the bot did not move:\n" + log.read_text()
        assert MoveRecord.objects.get(game=game, number=1).by_bot
        assert worker.poll() is None, log.read_text()
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGTERM)
        assert worker.wait(timeout=30) == 0, log.read_text()
        server.kill()
        server.wait()
    printed = log.read_text()
    assert "Connection to broker lost" in printed
    assert "Trying again in 1.00 second" in printed, "every second, not 2, 4, 6... s apart"
    assert "Unrecoverable error" not in printed and "Traceback" not in printed, printed


def test_a_channel_whose_connection_is_gone_raises_the_connection_error_kombu_handles():
    """Acknowledging a task that finished after the connection was lost (or putting back the
    messages the worker held) needs a client; kombu's Redis channel then failed with an
    AttributeError, which Celery takes for unrecoverable: the worker exited (benchmarks/outage.py).
    With ``nyet_site.worker`` loaded (the workers' consumer), it is a lost connection."""
    from kombu import Connection

    import nyet_site.worker  # noqa: F401 (the workers load it through CELERY_WORKER_CONSUMER)

    with Connection("redis://127.0.0.1:6379/9") as connection:
        channel = connection.default_channel
        channel._pool = None  # what closing the lost connection leaves
        channel.connection.client = None
        with pytest.raises(channel.connection_errors):
            channel._create_client()  # as an ack's pipe_or_acquire, or restore_unacked
