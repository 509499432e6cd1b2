"""End to end: the site under uvicorn, and examples/random_player.py as a separate process
playing a whole game against two of our bots through the API only."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from api.tokens import create_token
from games import engine
from games.models import Game, MoveRecord
from tests.games.test_push import serve, wait_for_sessions_to_close

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
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        wait_for_sessions_to_close(connection)
    assert client.returncode == 0, client.stderr + (tmp_path / "web.log").read_text()[-3000:]
    game = Game.objects.get(seats__user=alice)
    assert game.status == Game.Status.FINISHED
    assert f"game {game.pk} is over" in client.stdout
    moves = [engine.move_from_json(r.move) for r in MoveRecord.objects.filter(game=game)]
    replayed = engine.replay(game.players, game.seed, game.target, moves)
    assert engine.state_to_json(replayed) == game.state
    assert MoveRecord.objects.filter(game=game, by_bot=False).exists()  # alice's, by the client
