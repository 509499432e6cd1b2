"""What one move costs the write path: its statements and the CPU of the process that makes it.

    python benchmarks/move_cost.py [--games 6] [--players 4]

Plays whole games, a person in seat 0 against Easy bots (whose choice costs next to nothing),
through the actions the site runs: ``submit_move`` for the person's moves (as a page or the API
makes them) and ``play_bot_move`` for the bots' (as their task does), each in its own
transaction on PostgreSQL, in a database of its own (``nyet_move_bench``, created, migrated and
dropped here). Nothing runs on commit but the queueing, into Celery's in-memory broker: the
pages' fetches, the streams and the emails are other processes' work (the load test's).

Prints, for the person's moves and the bots' apart, the statements a move sends and the CPU
time this process spends on it (median and 95th percentile; PostgreSQL's own time is not in
it). Each game is dealt from its own fixed seed, so two checkouts play the same moves.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DATABASE = "nyet_move_bench"
os.environ["DATABASE_URL"] = f"postgresql://root@127.0.0.1:5432/{DATABASE}"
os.environ["CELERY_BROKER_URL"] = "memory://"
os.environ["CELERY_TASK_ALWAYS_EAGER"] = "false"
os.environ["REDIS_URL"] = ""
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nyet_site.settings")

from benchmarks import databases  # noqa: E402


class Counter:
    """Statements sent while it is installed (``connection.execute_wrapper``)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


def play(games: int, players: int) -> dict[str, list[tuple[int, float]]]:
    import django

    django.setup()
    from django.db import connection

    from accounts.models import User
    from games import engine
    from games.actions import create_game, submit_move
    from games.actions.moves import play_bot_move
    from games.models import Game

    alice = User.objects.create_user("alice", "alice@example.com", "pw")
    made: dict[str, list[tuple[int, float]]] = {"person": [], "bot": []}
    for number in range(games):
        with mock.patch("secrets.randbits", return_value=1000 + number):
            game = create_game(alice, players=players, bots=["easy"] * (players - 1))
        while game.status == Game.Status.ACTIVE:
            state = engine.state_from_json(game.state)
            person = 0 in engine.to_act(state)
            counter = Counter()
            with connection.execute_wrapper(counter):
                began = time.process_time()
                if person:
                    move = dict(engine.view(state, 0)["legal"][0])
                    del move["seat"]
                    submit_move(alice, game.pk, game.version, move)
                else:
                    assert play_bot_move(game.pk, game.version) is not None
                spent = time.process_time() - began
            made["person" if person else "bot"].append((counter.count, spent))
            game.refresh_from_db()
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", type=int, default=4)
    options = parser.parse_args()
    databases.fresh(DATABASE)
    try:
        made = play(options.games, options.players)
    finally:
        from django.db import connections

        connections.close_all()
        databases.drop(DATABASE)
    print(f"{options.games} games at {options.players} players, on PostgreSQL")
    for kind, moves in made.items():
        statements = sorted(n for n, _ in moves)
        cpu = sorted(1000 * s for _, s in moves)
        p95 = int(len(moves) * 0.95)
        print(
            f"{kind:>6}: {len(moves):5} moves, statements median {statistics.median(statements):g}"
            f" p95 {statements[p95]}, CPU ms median {statistics.median(cpu):.2f} p95 {cpu[p95]:.2f}"
        )


if __name__ == "__main__":
    main()
