"""A broker that cannot be reached never breaks a move; the sweep catches up once it is back.
And a real Celery worker on the machine's Redis plays the bots' turns (PostgreSQL + Redis)."""

import logging
import os
import random
import signal
import subprocess
import sys

import pytest
from django.core import mail

from games import engine
from games.actions import StaleVersion, create_game, invite_player, join_game, submit_move
from games.actions.deadlines import due
from games.models import Game, MoveRecord, PendingEmail
from tests.servers import ROOT, broker, wait_for

from .conftest import state_of


def person_to_move(state) -> dict:
    move = engine.view(state, 0)["legal"][0]
    del move["seat"]
    return move


@pytest.mark.django_db
def test_a_move_succeeds_with_the_broker_down_and_the_sweep_catches_up(
    alice, clock, caplog, django_capture_on_commit_callbacks
):
    for _ in range(50):  # a deal where the person moves first and a bot next
        game = create_game(alice, players=2, bots=["easy"])
        state = state_of(game)
        if engine.to_act(state) == (0,):
            break
        Game.objects.filter(pk=game.pk).delete()
    with broker("redis://127.0.0.1:1/0"), caplog.at_level(logging.ERROR):
        with django_capture_on_commit_callbacks(execute=True):
            submit_move(alice, game.pk, game.version, person_to_move(state))
    game.refresh_from_db()
    assert MoveRecord.objects.filter(game=game).count() == 1, "the move stands"
    assert "the broker is unreachable" in caplog.text and "Connection refused" in caplog.text
    assert engine.to_act(state_of(game)) == (1,), "the bot's turn is waiting"
    clock.advance(seconds=40)  # the broker is back (eager again): the sweep plays the bot
    with django_capture_on_commit_callbacks(execute=True):
        found = due()
    assert found["stalled"] == 1
    assert MoveRecord.objects.filter(game=game, by_bot=True).exists()


@pytest.mark.django_db
def test_emails_queued_while_the_broker_is_down_go_out_with_the_sweep(
    alice, bob, make_person, clock, caplog, django_capture_on_commit_callbacks
):
    carol = make_person("carol")
    table = create_game(alice, players=3, move_seconds=600)
    with broker("redis://127.0.0.1:1/0"), caplog.at_level(logging.ERROR):
        with django_capture_on_commit_callbacks(execute=True):
            invite_player(alice, table.pk, "carol")
        with django_capture_on_commit_callbacks(execute=True):
            join_game(bob, table.pk)
            join_game(carol, table.pk)  # the table is full: the game starts
    assert "Connection refused" in caplog.text
    assert mail.outbox == [] and PendingEmail.objects.count() == 3
    clock.advance(minutes=1)  # the broker is back (eager again); a task may still be on its way
    assert due()["emails_requeued"] == 0
    clock.advance(minutes=4)
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            due()
    sent = sorted((m.to[0], m.subject) for m in mail.outbox if "Your turn" not in m.subject)
    assert sent == [
        ("alice@example.com", f"Game {table.pk} has started"),
        ("bob@example.com", f"Game {table.pk} has started"),
        ("carol@example.com", "alice invites you to play Nyet!"),
    ]
    assert PendingEmail.objects.count() == 0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_on_redis_plays_the_bots(on_postgres, alice, tmp_path):
    from django.db import connection

    redis = "redis://127.0.0.1:6379/7"
    log = tmp_path / "worker.log"
    env = {
        **os.environ,
        "CELERY_BROKER_URL": redis,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "DATABASE_URL": "postgresql://root@127.0.0.1:5432/" + connection.settings_dict["NAME"],
    }
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "nyet_site",
            "worker",
            "--pool=solo",
            "--loglevel=info",
            "--without-heartbeat",
            "--without-mingle",
            "--without-gossip",
        ],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    rng = random.Random(1)
    try:
        with broker(redis):
            game = create_game(alice, players=3, bots=["easy", "easy"], target=30)
            while True:
                game.refresh_from_db()
                assert wait_for(
                    lambda: (
                        Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
                        or 0 in engine.to_act(state_of(Game.objects.get(pk=game.pk)))
                    )
                ), "the worker did not play the bots"
                game.refresh_from_db()
                if game.status == Game.Status.FINISHED:
                    break
                state = state_of(game)
                move = rng.choice(engine.view(state, 0)["legal"])
                del move["seat"]
                try:
                    submit_move(alice, game.pk, game.version, move)
                except StaleVersion:  # a bot discarded meanwhile (the same phase): try again
                    continue
            assert MoveRecord.objects.filter(game=game, by_bot=True).count() > 10
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=30)
    output = log.read_text()
    assert "games.tasks.play_bots" in output and "succeeded" in output
