"""End to end: the site under uvicorn, and examples/random_player.py as a separate process
playing a whole game through the API only: against two of our bots at a table it makes, and
with a person who invites it."""

import contextlib
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from api.tokens import create_token
from games import engine
from games.actions import ActionError, create_game, invite_player, submit_move
from games.models import Game, MoveRecord
from tests.games.conftest import state_of
from tests.servers import serve, stop

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_reference_client_plays_a_whole_game(on_postgres, alice, tmp_path):
    from django.db import connection

    _token, raw = create_token(alice, "client", ["read", "play"])
    server, port = serve(
        connection.settings_dict["NAME"],
        "",
        tmp_path,
        CELERY_TASK_ALWAYS_EAGER="true",
        BOT_PAUSE_SECONDS="0",
        RATELIMIT_ENABLE="false",
    )
    try:
        client = subprocess.run(
            [
                sys.executable,
                str(ROOT / "examples" / "random_player.py"),
                "--site",
                f"http://127.0.0.1:{port}",
                "--token",
                raw,
                "--target",
                "20",
                "--seed",
                "3",
            ],
            capture_output=True,
            text=True,
            timeout=240,
            cwd=ROOT,
        )
    finally:
        stop(server, connection)
    assert client.returncode == 0, client.stderr + (tmp_path / "web.log").read_text()[-3000:]
    game = Game.objects.get(seats__user=alice)
    assert game.status == Game.Status.FINISHED
    assert f"game {game.pk} is over" in client.stdout
    moves = [engine.move_from_json(r.move) for r in MoveRecord.objects.filter(game=game)]
    replayed = engine.replay(game.players, game.seed, game.target, moves)
    assert engine.state_to_json(replayed) == game.state
    assert MoveRecord.objects.filter(game=game, by_bot=False).exists()  # alice's, by the client


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_reference_client_accepts_an_invitation_from_its_account_stream(
    on_postgres, alice, bob, tmp_path
):
    """bob (a person, moving from this process) asks the client to his table with one of our
    bots: the client hears it on its account stream, joins, and plays the game out with him."""
    from django.db import connection

    _token, raw = create_token(alice, "client", ["read", "play"])
    table = create_game(bob, players=3, bots=["easy"], target=10, visibility="private")
    server, port = serve(
        connection.settings_dict["NAME"],
        "",
        tmp_path,
        CELERY_TASK_ALWAYS_EAGER="true",
        BOT_PAUSE_SECONDS="0",
        RATELIMIT_ENABLE="false",
    )
    command = [sys.executable, str(ROOT / "examples" / "random_player.py")]
    options = ["--site", f"http://127.0.0.1:{port}", "--token", raw, "--wait", "120"]
    client = subprocess.Popen(
        [*command, *options, "--seed", "5"], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    try:
        # at once: an invitation made before the client's account stream opens is among the
        # first lines it reads (what holds), one made after comes as it happens
        invite_player(bob, table.pk, "alice")
        rng = random.Random(6)
        deadline = time.monotonic() + 240
        while client.poll() is None and time.monotonic() < deadline:
            game = Game.objects.get(pk=table.pk)
            seat = game.seats.filter(user=bob).values_list("position", flat=True).first()
            legal = engine.view(state_of(game), seat)["legal"] if game.state else []
            if game.status == Game.Status.ACTIVE and legal:
                move = rng.choice(legal)
                del move["seat"]
                with contextlib.suppress(ActionError):  # a bot's reply moved it on
                    submit_move(bob, game.pk, game.version, move)
            else:
                time.sleep(0.05)
        output, _ = client.communicate(timeout=60)
    finally:
        if client.poll() is None:
            client.kill()
        stop(server, connection)
    assert client.returncode == 0, (tmp_path / "web.log").read_text()[-3000:]
    assert f"invited by bob to game {table.pk}: joined" in output
    assert f"game {table.pk} is over" in output
    game = Game.objects.get(pk=table.pk)
    assert game.status == Game.Status.FINISHED
    seat = game.seats.get(user=alice).position
    assert MoveRecord.objects.filter(game=game, seat=seat, by_bot=False).exists()
