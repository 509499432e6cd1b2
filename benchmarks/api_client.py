"""The API under one client: the production web process (the Procfile's ``web`` line) on
PostgreSQL and Redis, and one program playing every seat of 4-player live games through
``/api/v1/`` with four tokens (four people), as fast as the answers come, for ``--seconds``.

    .venv/bin/python benchmarks/api_client.py [--seconds 60]

Each move is two calls, as a client that does not keep its own copy of the game makes them:
``GET /games/{id}`` as the seat to act (its view and legal moves), then ``POST .../move``. Games
are made, joined and started through the API too; a finished game is followed by a new one.
Meanwhile another program (a thread here, its own connection) reads the game stream of seat 0
(``/games/{id}/stream``) and notes when each version arrives: the delay from a move sent to its
event on that stream. Prints moves a second, each call's median and p95 time, and the delay's
median and p95. The site's rate limits are off (one person may make 5 moves a second; four
people's moves come from one program here). Its own database, ``nyet_api``; Redis database 12.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks" / "load"))
from run import PRODUCTION  # noqa: E402  (benchmarks/load/run.py)

from benchmarks.web import start_web  # noqa: E402

DATABASE = "nyet_api"
REDIS = "redis://127.0.0.1:6379/12"


def prepare(folder: Path) -> tuple[dict, list[str]]:
    """The database and the four people's tokens."""
    import psycopg
    import redis

    url = f"postgresql://root@127.0.0.1:5432/{DATABASE}"
    with psycopg.connect("postgresql://root@127.0.0.1:5432/postgres", autocommit=True) as db:
        db.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        db.execute(f"CREATE DATABASE {DATABASE}")
    redis.Redis.from_url(REDIS).flushdb()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NYET_", "DJANGO_"))}
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    env.update(PRODUCTION, DATABASE_URL=url, REDIS_URL=REDIS, STATIC_ROOT=str(folder))
    env["PATH"] = f"{Path(sys.executable).parent}:{env['PATH']}"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "nyet_site.settings"
    import django

    django.setup()
    from accounts.models import User
    from api.tokens import create_token

    tokens = []
    for name in ("ann", "ben", "cat", "dan"):
        user = User.objects.create_user(name, f"{name}@example.com", "a long passphrase 42")
        tokens.append(create_token(user, "bench", ["read", "play"])[1])
    return env, tokens


class Caller:
    """One person's token on one kept-alive connection; each call's time is noted."""

    def __init__(self, port: int, token: str, times: dict[str, list[float]]) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/json",
            "Host": "127.0.0.1",
            "X-Forwarded-Proto": "https",
        }
        self.times = times

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        began = time.perf_counter()
        data = None if body is None else json.dumps(body)
        self.connection.request(method, "/api/v1" + path, data, self.headers)
        response = self.connection.getresponse()
        answer = json.loads(response.read() or b"{}")
        # "GET /games/{id}", "POST /games/{id}/move": one line per kind of call
        kind = f"{method} " + "/".join("{id}" if p.isdigit() else p for p in path.split("/"))
        self.times.setdefault(kind, []).append(time.perf_counter() - began)
        assert response.status < 500, (method, path, response.status, answer)
        return response.status, answer


def new_game(people: list[Caller]) -> int:
    status, table = people[0].call("POST", "/games", {"players": 4, "move_seconds": "live:600"})
    assert status == 201, table
    for person in people[1:]:
        status, answer = person.call("POST", f"/games/{table['id']}/join", {})
        assert status == 200, answer
    return table["id"]


class Listener(threading.Thread):
    """Seat 0's game stream, read as it comes: when each version arrived."""

    def __init__(self, port: int, token: str, game_id: int) -> None:
        super().__init__(daemon=True)
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {"Authorization": f"Bearer {token}", "Host": "127.0.0.1"}
        headers["X-Forwarded-Proto"] = "https"
        self.connection.request("GET", f"/api/v1/games/{game_id}/stream", headers=headers)
        self.response = self.connection.getresponse()
        assert self.response.status == 200, self.response.status
        self.arrived: dict[int, float] = {}

    def run(self) -> None:
        try:
            for line in self.response:
                event = json.loads(line)
                if event["type"] == "game":
                    self.arrived.setdefault(event["version"], time.perf_counter())
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            pass  # closed from the other thread at the end of the game

    def close(self) -> None:
        self.connection.sock.shutdown(socket.SHUT_RDWR)
        self.connection.close()


def play(port: int, tokens: list[str], seconds: float, rng: random.Random) -> dict:
    times: dict[str, list[float]] = {}
    people = [Caller(port, token, times) for token in tokens]
    delays, moves, games = [], 0, 0
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        game_id = new_game(people)
        games += 1
        listener = Listener(port, tokens[0], game_id)
        listener.start()
        sent: dict[int, float] = {}  # the version a move made: when it was sent
        seat_of = {}
        for person in people:
            _status, game = person.call("GET", f"/games/{game_id}")
            seat_of[game["my_seat"]] = person
        acting = game["view"]["to_act"]
        while time.monotonic() < stop and acting:
            person = seat_of[acting[0]]
            _status, game = person.call("GET", f"/games/{game_id}")
            if game["status"] != "active":
                break
            sent[game["version"] + 1] = time.perf_counter()
            body = {"version": game["version"], "move": rng.choice(game["legal"])}
            status, game = person.call("POST", f"/games/{game_id}/move", body)
            assert status == 200, game
            moves += 1
            acting = game["view"]["to_act"] if game["status"] == "active" else []
        time.sleep(0.5)  # the last events reach the listener
        listener.close()
        delays += [listener.arrived[v] - t for v, t in sent.items() if v in listener.arrived]
    return {"moves": moves, "games": games, "times": times, "delays": delays}


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env, tokens = prepare(Path(folder))
        site, port = start_web(env, Path(folder))
        try:
            began = time.monotonic()
            figures = play(port, tokens, args.seconds, random.Random(1))
            elapsed = time.monotonic() - began
        except Exception:
            print((Path(folder) / "web.log").read_text()[-3000:])
            raise
        finally:
            os.killpg(site.pid, signal.SIGTERM)
            site.wait(timeout=60)
    print(
        f"{figures['moves']} moves in {elapsed:.0f} s over {figures['games']} games: "
        f"{figures['moves'] / elapsed:.1f} moves/s"
    )
    print("| call | count | median | p95 |")
    print("|---|---|---|---|")
    for kind, values in sorted(figures["times"].items()):
        if len(values) >= 20:
            print(
                f"| {kind} | {len(values)} | {statistics.median(values) * 1000:.1f} ms | "
                f"{p95(values) * 1000:.1f} ms |"
            )
    delays = figures["delays"]
    print(
        f"move sent → its event on seat 0's stream: {len(delays)} moves, median "
        f"{statistics.median(delays) * 1000:.1f} ms, p95 {p95(delays) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
