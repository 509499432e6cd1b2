"""End to end (issue 33's goal): the site under uvicorn, and examples/bot_account.py as a
separate process with a bot account's token, driven by its account's stream alone. A person
(alice, through the API over HTTP) invites it to a table, they play the game out; she invites it
again to a new table, they play that one; then she asks for a rematch, which it accepts, and they
play the rematch too."""

import json
import random
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from api.tokens import create_token
from games import engine
from games.actions import become_bot_account
from games.models import Game, Invitation, MoveRecord
from tests.servers import serve, stop

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 240  # seconds for the whole scenario


class Person:
    """alice at the API, over HTTP, as any program would be."""

    def __init__(self, port: int, token: str) -> None:
        self.url = f"http://127.0.0.1:{port}/api/v1"
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        self.rng = random.Random(11)

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        data = None if method == "GET" else json.dumps(body or {}).encode()
        request = urllib.request.Request(self.url + path, data, self.headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            return {"status": error.code, **json.load(error)}

    def invite_to_a_new_table(self) -> int:
        table = self.call("POST", "/games", {"players": 2, "target": 1, "visibility": "private"})
        assert "code" not in table, table
        sent = self.call("POST", f"/games/{table['id']}/invite", {"username": "robo"})
        assert sent.get("to") == "robo", sent
        return table["id"]

    def play_out(self, game_id: int, until: float, client) -> None:
        """Alice's random moves, each time her game's stream says she may move, until the game
        is over (the client moves for robo)."""
        while time.monotonic() < until and client.poll() is None:  # the stream may end: again
            request = urllib.request.Request(
                f"{self.url}/games/{game_id}/stream", None, self.headers
            )
            with urllib.request.urlopen(request, timeout=60) as lines:
                for line in lines:
                    game = json.loads(line)
                    if game["type"] != "game":
                        continue
                    if game["status"] == "finished":
                        return
                    if game["legal"]:
                        move = {
                            "version": game["version"],
                            "move": self.rng.choice(game["legal"]),
                            "round": game["view"]["round"],
                        }
                        self.call("POST", f"/games/{game_id}/move", move)
        raise AssertionError(f"game {game_id} did not end (the client: {client.poll()})")

    def rematch(self, game_id: int, until: float) -> int:
        offer = self.call("POST", f"/games/{game_id}/rematch")
        assert offer.get("waiting") == ["robo"], offer
        while time.monotonic() < until:
            offer = self.call("GET", f"/games/{game_id}/rematch")
            if offer["new_game"]:
                return offer["new_game"]
            assert offer["outcome"] == "open", offer
            time.sleep(0.05)  # robo hears of it on its next check (2 s): look again
        raise AssertionError(f"robo never answered the rematch offer of game {game_id}")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_bot_account_client_answers_two_invitations_and_a_rematch(
    on_postgres, alice, make_person, tmp_path
):
    from django.db import connection

    robo = make_person("robo")
    become_bot_account(robo)
    _token, bot_token = create_token(robo, "client", ["bot"])
    _token, person_token = create_token(alice, "person", ["read", "play"])
    server, port = serve(
        connection.settings_dict["NAME"],
        "",
        tmp_path,
        CELERY_TASK_ALWAYS_EAGER="true",
        BOT_PAUSE_SECONDS="0",
        RATELIMIT_ENABLE="false",
    )
    command = [sys.executable, str(ROOT / "examples" / "bot_account.py")]
    options = ["--site", f"http://127.0.0.1:{port}", "--token", bot_token]
    client = subprocess.Popen(
        [*command, *options, "--games", "3", "--seed", "5"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    alice_at = Person(port, person_token)
    until = time.monotonic() + DEADLINE
    try:
        first = alice_at.invite_to_a_new_table()
        alice_at.play_out(first, until, client)
        second = alice_at.invite_to_a_new_table()  # invited again, at once
        alice_at.play_out(second, until, client)
        third = alice_at.rematch(second, until)
        alice_at.play_out(third, until, client)
        output, errors = client.communicate(timeout=60)
    finally:
        if client.poll() is None:
            client.kill()
        stop(server, connection)
    assert client.returncode == 0, errors + (tmp_path / "web.log").read_text()[-3000:]
    assert f"invited by alice to game {first}: accepted" in output
    assert f"invited by alice to game {second}: accepted" in output
    assert f"rematch of game {second} asked by alice: accepted" in output
    for game_id in (first, second, third):
        assert f"game {game_id} is over: finished" in output
        game = Game.objects.get(pk=game_id)
        assert game.status == Game.Status.FINISHED
        seat = game.seats.get(user=robo).position
        # robo's moves are the client's: none by a stand-in, every one replays
        assert MoveRecord.objects.filter(game=game, seat=seat, by_bot=False).exists()
        assert not MoveRecord.objects.filter(game=game, seat=seat, timeout=True).exists()
        moves = [engine.move_from_json(r.move) for r in MoveRecord.objects.filter(game=game)]
        replayed = engine.replay(game.players, game.seed, game.target, moves)
        assert engine.state_to_json(replayed) == game.state
    assert Game.objects.get(pk=third).rematch_of_id == second
    assert set(Invitation.objects.values_list("answer", flat=True)) == {"accepted"}
