from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command

from accounts.models import User
from games.management.commands.setup_demo import DEMO_PASSWORD, DEMO_USERNAME

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def setup_demo() -> str:
    out = StringIO()
    call_command("setup_demo", stdout=out)
    return out.getvalue()


def test_setup_demo_makes_the_demo_account_and_prints_its_login():
    output = setup_demo()

    demo = authenticate(username=DEMO_USERNAME, password=DEMO_PASSWORD)
    assert demo is not None
    assert not demo.is_bot
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


def test_setup_demo_gives_the_demo_a_game_to_replay_and_a_game_in_play(client):
    from django.urls import reverse

    from games import engine
    from games.models import Game

    output = setup_demo()
    demo = User.objects.get(username=DEMO_USERNAME)
    finished = Game.objects.get(seats__user=demo, status=Game.Status.FINISHED)
    playing = Game.objects.get(seats__user=demo, status=Game.Status.ACTIVE)
    assert reverse("game_replay", args=[finished.pk]) in output
    assert reverse("game", args=[playing.pk]) in output
    state = engine.state_from_json(playing.state)
    assert state.round == 2 and state.phase == "tricks"
    assert playing.seats.get(user=demo).position in engine.to_act(state)
    client.force_login(demo)
    replay = client.get(reverse("game_replay", args=[finished.pk]), {"step": 5})
    assert replay.status_code == 200 and 'data-zone="replay-hands"' in replay.content.decode()

    setup_demo()
    assert Game.objects.filter(seats__user=demo).count() == 2
