import logging
from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command
from django.urls import reverse

from accounts.models import Rating, RatingChange, User
from games import engine, tasks
from games.actions import resign, submit_move
from games.actions.deadlines import due
from games.bots import make_bot
from games.management.commands.setup_demo import (
    DEMO_PASSWORD,
    DEMO_USERNAME,
    play_bots,
    waiting_game,
)
from games.models import Game, MoveRecord

pytestmark = pytest.mark.django_db


def setup_demo() -> str:
    out = StringIO()
    call_command("setup_demo", stdout=out)
    return out.getvalue()


def test_setup_demo_makes_the_demo_account_and_prints_its_login():
    output = setup_demo()

    demo = authenticate(username=DEMO_USERNAME, password=DEMO_PASSWORD)
    assert demo is not None
    assert not demo.is_site_bot
    assert not demo.is_staff
    assert "Demo account created" in output
    assert f"username: {DEMO_USERNAME}\n" in output
    assert f"password: {DEMO_PASSWORD}\n" in output
    assert "/accounts/login/" in output


def test_setup_demo_makes_one_bot_player_per_level():
    output = setup_demo()

    bots = User.objects.exclude(bot_level="")
    assert sorted(bots.values_list("bot_level", flat=True)) == sorted(User.BotLevel.values)
    assert not any(bot.has_usable_password() for bot in bots)
    for level in User.BotLevel.values:
        assert f"bot-{level}" in output


def test_setup_demo_run_again_makes_nothing_twice():
    setup_demo()
    users = set(User.objects.values_list("pk", "username", "password"))

    output = setup_demo()

    assert set(User.objects.values_list("pk", "username", "password")) == users
    assert "Demo account ready" in output
    assert f"password: {DEMO_PASSWORD}\n" in output


def test_setup_demo_puts_the_demo_login_back():
    setup_demo()
    User.objects.filter(username=DEMO_USERNAME).update(password="!", is_active=False)

    setup_demo()

    assert authenticate(username=DEMO_USERNAME, password=DEMO_PASSWORD) is not None
    assert User.objects.filter(username=DEMO_USERNAME).count() == 1


def test_setup_demo_refuses_to_run_in_production(settings):
    settings.PRODUCTION = True

    with pytest.raises(CommandError, match="production"):
        setup_demo()

    assert not User.objects.exists()


def demo_games():
    demo = User.objects.get(username=DEMO_USERNAME)
    finished = Game.objects.get(seats__user=demo, status=Game.Status.FINISHED)
    waiting = Game.objects.get(seats__user=demo, status=Game.Status.ACTIVE)
    return demo, finished, waiting


def demo_seat(game: Game, demo: User) -> int:
    return game.seats.get(user=demo).position


def waits_for(game: Game, demo: User) -> bool:
    game.refresh_from_db()
    state = engine.state_from_json(game.state)
    return game.status == Game.Status.ACTIVE and demo_seat(game, demo) in engine.to_act(state)


@pytest.mark.django_db(transaction=True)  # the moves commit, and what they queue runs, as in use
def test_setup_demo_says_ten_lines_at_most_and_logs_nothing(caplog):
    """It printed 142 lines (a log line per bot turn): now the login and the two games' links."""
    caplog.set_level(logging.DEBUG, logger="nyet")
    caplog.set_level(logging.DEBUG, logger="games")
    out, err = StringIO(), StringIO()
    task_log_level = logging.getLogger("nyet.tasks").level

    call_command("setup_demo", stdout=out, stderr=err)

    lines = out.getvalue().splitlines() + err.getvalue().splitlines()
    logged = [f"{r.name} {r.getMessage()}" for r in caplog.records if r.levelno >= logging.INFO]
    assert len(lines) + len(logged) <= 10, lines + logged
    assert logged == []
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 1
    # the task log is as loud as before once it is done
    assert logging.getLogger("nyet.tasks").level == task_log_level


def test_setup_demo_gives_the_demo_a_correspondence_game_with_bots_waiting_for_its_move(clock):
    output = setup_demo()

    demo, _finished, waiting = demo_games()
    assert f"{reverse('game', args=[waiting.pk])}\n" in output
    assert waiting.time_control == Game.TimeControl.CORRESPONDENCE
    assert waiting.move_seconds == 7 * 24 * 3600  # the longest the site offers
    assert waits_for(waiting, demo)
    seats = list(waiting.seats.select_related("user").order_by("position"))
    assert [s.user.username for s in seats if s.user != demo] == [
        "bot-easy",
        "bot-medium",
        "bot-medium",
    ]
    mine = seats[demo_seat(waiting, demo)]
    assert mine.deadline == clock() + timedelta(days=7)
    # The demo has not moved in it: the bots made every move so far.
    assert not MoveRecord.objects.filter(game=waiting, by_bot=False).exists()
    assert waiting_game(demo) == waiting


def test_setup_demo_gives_the_demo_a_finished_game_that_replays(client):
    output = setup_demo()

    demo, finished, _waiting = demo_games()
    replay = reverse("game_replay", args=[finished.pk])
    assert f"{replay}\n" in output
    assert finished.players == 3 and finished.target == 60
    # the demo's seat moved as a person: a rated game, as one it played
    assert MoveRecord.objects.filter(game=finished, by_bot=False).exists()
    assert RatingChange.objects.filter(game=finished, user=demo).exists()
    client.force_login(demo)
    first = client.get(replay, {"step": 5})
    assert first.status_code == 200 and 'data-zone="replay-hands"' in first.content.decode()
    last = client.get(replay, {"step": finished.moves_made})
    assert last.status_code == 200


def test_setup_demo_run_again_makes_no_game_twice():
    setup_demo()
    demo, finished, waiting = demo_games()
    moves = MoveRecord.objects.count()

    output = setup_demo()

    assert demo_games() == (demo, finished, waiting)
    assert Game.objects.count() == 2 and MoveRecord.objects.count() == moves
    assert f"{reverse('game', args=[waiting.pk])}\n" in output


def test_setup_demo_run_again_makes_a_waiting_game_when_the_last_no_longer_waits():
    setup_demo()
    demo, finished, waiting = demo_games()
    # the demo moves: the bots' turn (their task is queued, not played here)
    state = engine.state_from_json(waiting.state)
    move = engine.move_to_json(
        make_bot("easy", "test").choose(engine.view(state, demo_seat(waiting, demo)))
    )
    del move["seat"]
    submit_move(demo, waiting.pk, waiting.version, move)
    assert waiting_game(demo) is None

    output = setup_demo()

    again = waiting_game(demo)
    assert again is not None and again != waiting and waits_for(again, demo)
    assert f"{reverse('game', args=[again.pk])}\n" in output
    assert Game.objects.filter(status=Game.Status.FINISHED).get() == finished

    resign(demo, again.pk)  # its seat on autopilot: it waits no more

    setup_demo()
    third = waiting_game(demo)
    assert third not in (None, waiting, again) and waits_for(third, demo)


def test_the_demo_game_waits_21_days_and_then_ends_unrated(
    clock, monkeypatch, client, django_capture_on_commit_callbacks
):
    """Nobody plays the demo: its turn times out each 7 days (the sweep, every minute, finds
    it), the stand-in moves for it and the bots answer, so the game waits for the demo again;
    the third timeout in a row puts the seat on autopilot and the bots finish the game. The
    demo made no move in it: not rated, its rating untouched. Its next login finds a new
    game waiting."""
    monkeypatch.setattr(tasks, "SQLITE_GAP_SECONDS", 0)  # the bots play the end at full speed
    setup_demo()
    demo, finished, waiting = demo_games()
    rating = Rating.objects.values_list("mu", "sigma").get(user=demo)
    start = clock()

    def sweep_at(when):
        clock.current = when
        with django_capture_on_commit_callbacks(execute=True):
            due(when)

    for week in (1, 2):
        sweep_at(start + timedelta(days=7 * week) - timedelta(minutes=2))
        assert waits_for(waiting, demo), f"week {week}, before the deadline"
        sweep_at(start + timedelta(days=7 * week) + timedelta(minutes=1))
        assert waits_for(waiting, demo), f"week {week}, after the timeout"
        assert waiting_game(demo) == waiting
    sweep_at(start + timedelta(days=21) - timedelta(minutes=2))
    assert waits_for(waiting, demo) and waiting_game(demo) == waiting

    sweep_at(start + timedelta(days=21) + timedelta(minutes=1))
    waiting.refresh_from_db()
    if waiting.status == Game.Status.ACTIVE:  # a slice's worth of moves each task: the rest
        play_bots(waiting.pk)
        waiting.refresh_from_db()
    assert waiting.status == Game.Status.FINISHED
    assert waiting.seats.get(user=demo).autopilot
    assert not RatingChange.objects.filter(game=waiting).exists()
    assert Rating.objects.values_list("mu", "sigma").get(user=demo) == rating
    assert waiting_game(demo) is None

    client.force_login(demo)

    new = waiting_game(demo)
    assert new is not None and waits_for(new, demo)
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 2


def test_the_demo_login_leaves_a_waiting_game_alone(client):
    setup_demo()
    demo, _finished, waiting = demo_games()

    client.force_login(demo)

    assert Game.objects.count() == 2 and waiting_game(demo) == waiting


def test_no_game_is_made_at_the_demo_login_in_production(client, settings):
    demo = User.objects.create_user(DEMO_USERNAME, password=DEMO_PASSWORD)
    settings.PRODUCTION = True

    client.force_login(demo)

    assert not Game.objects.exists()


def test_another_account_login_makes_no_game(client, alice):
    client.force_login(alice)

    assert not Game.objects.exists()
