"""Tasks take ids and the version they expect, and are safe to run twice or late."""

import pytest
from django.core import mail
from django.db import connection

from games import engine, live, queue, tasks
from games.actions import create_game, join_game, resign
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


@pytest.mark.django_db(transaction=True)  # each bot move commits, and is announced, in turn
def test_the_bots_of_a_table_answer_one_after_another_with_no_pause(alice, monkeypatch):
    announced, queued = [], []
    # the task under test is the only one to run: the bot turns it queues are recorded
    monkeypatch.setattr(queue, "publish", lambda *task, **options: queued.append(task) or True)
    monkeypatch.setattr(
        live,
        "announce",
        lambda game_id, version, kind=live.VERSION, by=None: announced.append(
            (game_id, version, kind, by)
        ),
    )
    slept = []
    monkeypatch.setattr(tasks.time, "sleep", slept.append)
    # One slice holds the three moves however loaded the machine (slices: the next test).
    monkeypatch.setattr(tasks, "SQLITE_SLICE_SECONDS", 60)
    monkeypatch.setattr(tasks, "SLICE_SECONDS", 60)
    for _ in range(50):
        game = create_game(alice, players=4, bots=["easy", "easy", "easy"])
        alice_seat = game.seats.get(user=alice).position
        if engine.to_act(engine.state_from_json(game.state)) == ((alice_seat + 1) % 4,):
            break  # the three bots, then alice
    else:
        raise AssertionError("no deal with the three bots first")
    version = game.version
    announced.clear()
    queued.clear()
    made = play_bots(game.pk, version)
    game.refresh_from_db()
    state = engine.state_from_json(game.state)
    assert made == 3 and engine.to_act(state) == (alice_seat,)
    # by bots: no person's page holds these tables already
    assert announced == [(game.pk, version + n, live.VERSION, None) for n in (1, 2, 3)]
    assert game.version == version + 3
    assert MoveRecord.objects.filter(game=game, by_bot=True).count() == 3
    assert queued == [], "alice's turn: nothing more for the bots"
    # No pause for a person's sake; on SQLite only, the lock left free after each move.
    gaps = [tasks.SQLITE_GAP_SECONDS] * 3 if connection.vendor == "sqlite" else []
    assert slept == gaps


@pytest.mark.django_db(transaction=True)
def test_a_table_left_to_its_bots_is_played_in_slices_queued_behind_the_others(alice, monkeypatch):
    """Each task stops after its slice and queues the rest of the table's turns again (on the
    catch-up queue, as no person plays there): it never plays a whole game."""
    queued = []
    monkeypatch.setattr(
        queue, "publish", lambda *task, **options: queued.append((task, options)) or True
    )
    game = create_game(alice, players=3, bots=["easy", "easy"])
    resign(alice, game.pk)
    queued.clear()
    slice_length = (
        tasks.SQLITE_SLICE_SECONDS if connection.vendor == "sqlite" else tasks.SLICE_SECONDS
    )
    readings = iter(range(1000))  # each reading of the clock is half a slice later
    monkeypatch.setattr(tasks.time, "perf_counter", lambda: next(readings) * slice_length / 2)
    version = Game.objects.get(pk=game.pk).version
    made = play_bots(game.pk, version)
    game.refresh_from_db()
    assert made == 1 and game.version == version + 1 and game.status == Game.Status.ACTIVE
    assert queued == [(("games.tasks.play_bots", game.pk, game.version), {"queue": "catchup"})]


def test_the_timeout_task_is_safe_to_run_twice_or_late(act, alice, clock):
    game = act(create_game, alice, players=2, bots=["easy"], move_seconds=300)
    game.refresh_from_db()  # the bot may have moved first
    version = game.version
    clock.advance(minutes=6)
    before = MoveRecord.objects.filter(game=game).count()
    made = play_timeouts(game.pk, version)
    game.refresh_from_db()
    moved = MoveRecord.objects.filter(game=game).count()
    assert made == 1 and moved - before >= 1, "the stand-in's move; the bot's is queued"
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
