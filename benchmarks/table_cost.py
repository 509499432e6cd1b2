"""What a move at a live table of people costs the web, in one process: the move's request and
the other seats' new tables, drawn the two ways a page can get them.

    python benchmarks/table_cost.py [--games 3] [--players 4]

Plays whole games of people (each game dealt from its own fixed seed), each move posted as the
page posts it (Django's test client: every middleware, the session, the form, the move, the
answer's table). After each move, every other seat's table is drawn both ways, alternating
which goes first: **fetched** as the page fetched it before issue 36 (the stream's "version N",
then a GET of the poll through the whole site) and **streamed** as the event stream now draws it
for a seated player (``games.stream.SeatTable``: the session and its player read afresh, the
selector, the template). Both ways draw the same table; comparing them in one process, move by
move, holds when the machine is busy with other work, where a load test's figures are not.

Prints the CPU of this process (PostgreSQL's own time is not in it) per move: the move's
request, then the other seats' tables each way, and the sum a move costs the web each way. The
streams' own upkeep (keep-alives, presence) and the page visits between moves are the load
test's (``benchmarks/load/run.py``). Runs on PostgreSQL in a database of its own
(``nyet_table_bench``, created, migrated and dropped here).
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

DATABASE = "nyet_table_bench"
os.environ["DATABASE_URL"] = f"postgresql://root@127.0.0.1:5432/{DATABASE}"
os.environ["CELERY_BROKER_URL"] = "memory://"
os.environ["CELERY_TASK_ALWAYS_EAGER"] = "false"
os.environ["REDIS_URL"] = ""
os.environ["RATELIMIT_ENABLE"] = "false"
os.environ["DEBUG"] = "false"  # as served: no query log, the cached template loader
os.environ["ALLOWED_HOSTS"] = "testserver"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nyet_site.settings")

from benchmarks import databases  # noqa: E402
from benchmarks.move_form import form_of  # noqa: E402


def play(games: int, players: int) -> dict[str, list[float]]:
    import logging

    import django

    django.setup()
    logging.disable(logging.INFO)  # the request log's line a request
    from django.contrib.sessions.backends.db import SessionStore
    from django.test import Client, RequestFactory
    from django.urls import reverse

    from accounts.models import User
    from games import engine
    from games.actions import create_game, join_game
    from games.models import Game
    from games.stream import SeatTable

    people = [User.objects.create_user(f"p{i}", f"p{i}@example.com", "pw") for i in range(players)]
    clients = []
    for person in people:
        client = Client(HTTP_HX_REQUEST="true")
        client.force_login(person)
        clients.append(client)
    spent: dict[str, list[float]] = {"move": [], "fetched": [], "streamed": []}
    for number in range(games):
        with mock.patch("secrets.randbits", return_value=2000 + number):
            game = create_game(people[0], players=players)
            for person in people[1:]:
                join_game(person, game.pk)
        game.refresh_from_db()
        seat_of = {s.position: s.user for s in game.seats.select_related("user")}
        client_of = {p: clients[people.index(u)] for p, u in seat_of.items()}
        tables = {}
        for position, user in seat_of.items():
            request = RequestFactory().get("/")
            request.session = SessionStore(client_of[position].cookies["sessionid"].value)
            request.user = user
            tables[position] = SeatTable(request, user, game.pk, "")
        while game.status == Game.Status.ACTIVE:
            state = engine.state_from_json(game.state)
            mover = engine.to_act(state)[0]
            move = dict(engine.view(state, mover)["legal"][0])
            data = form_of(move, game.version, state.round)
            before = game.version
            began = time.process_time()
            answer = client_of[mover].post(reverse("game_move", args=[game.pk]), data)
            spent["move"].append(time.process_time() - began)
            assert answer.status_code == 200 and b'class="error' not in answer.content, answer
            game.refresh_from_db()
            assert game.version == before + 1
            others = [p for p in seat_of if p != mover]
            ways = ["fetched", "streamed"] if len(spent["fetched"]) % 2 else ["streamed", "fetched"]
            for way in ways:
                began = time.process_time()
                for position in others:
                    if way == "streamed":
                        drawn = tables[position].draw()
                        assert drawn is not None and drawn[0] == game.version and drawn[1]
                    else:
                        url = reverse("game_poll", args=[game.pk])
                        fetched = client_of[position].get(url, {"version": before})
                        assert fetched.status_code == 200
                spent[way].append(time.process_time() - began)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    options = parser.parse_args()
    databases.fresh(DATABASE)
    try:
        spent = play(options.games, options.players)
    finally:
        from django.db import connections

        connections.close_all()
        databases.drop(DATABASE)
    moves = len(spent["move"])
    print(f"{options.games} games at {options.players} players, {moves} moves, on PostgreSQL")
    print("CPU ms a move, median (mean):")
    median = {k: 1000 * statistics.median(v) for k, v in spent.items()}
    mean = {k: 1000 * statistics.fmean(v) for k, v in spent.items()}
    print(f"  the move's request:             {median['move']:6.2f} ({mean['move']:.2f})")
    for way in ("fetched", "streamed"):
        print(f"  the other seats' tables, {way:8} {median[way]:6.2f} ({mean[way]:.2f})")
    for way in ("fetched", "streamed"):
        print(f"  the move and the tables, {way:8} {mean['move'] + mean[way]:6.2f} (mean)")


if __name__ == "__main__":
    main()
