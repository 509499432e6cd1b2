"""Every API route reads a fixed number of queries, however many games, seats and moves there
are: a list costs the same for one game as for ten."""

import json
import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from api.tokens import create_token
from games.actions import create_game, join_game
from games.models import Game, MoveRecord
from tests.games.conftest import play_out

pytestmark = pytest.mark.django_db
API = "/api/v1"


class Program:
    """A client with a token, counting each call's queries."""

    def __init__(self, user, capture, scopes=("read", "play")):
        self.capture = capture
        _token, raw = create_token(user, "counted", list(scopes))
        self.client = Client(headers={"Authorization": f"Bearer {raw}"})
        self.get("/account")  # the token's first use notes it (once a minute): not counted

    def get(self, path):
        return self.counted(lambda: self.client.get(API + path))

    def post(self, path, body=None):
        return self.counted(
            lambda: self.client.post(
                API + path, json.dumps(body or {}), content_type="application/json"
            )
        )

    def counted(self, call):
        """The call's own queries; its on-commit work (bot turns, queued for the worker) runs
        after it, uncounted."""
        with self.capture(execute=True), CaptureQueriesContext(connection) as queries:
            response = call()
        assert response.status_code < 300, response.content
        return len(queries), response.json()


def tables(act, owner, guest, count: int, started: bool) -> list[Game]:
    made = []
    for _ in range(count):
        game = act(create_game, owner, players=3, bots=["easy"])
        if started:
            act(join_game, guest, game.pk)
        made.append(game)
    return made


def test_lists_cost_the_same_for_one_game_as_for_ten(
    act, alice, bob, django_capture_on_commit_callbacks
):
    program = Program(alice, django_capture_on_commit_callbacks)
    counts = []
    for count in (1, 9):
        tables(act, alice, bob, count, started=False)  # mine, waiting, and open to all
        tables(act, bob, alice, count, started=True)  # mine, in play
        counts.append((program.get("/games")[0], program.get("/tables")[0]))
        assert len(program.get("/games")[1]) == 2 * len(Game.objects.filter(status="open"))
    # The token; the games; their seats with their players.
    assert counts == [(3, 3), (3, 3)]


def route_counts(capture, owner, guest, robot: "Program", players: int) -> dict[str, int]:
    """Each route's queries, on a table of ``players`` and its game, where ``robot``, a bot
    account, takes a seat."""
    program, other = Program(owner, capture), Program(guest, capture)
    counts = {"GET /account": program.get("/account")[0]}
    counts["POST /games"], made = program.post("/games", {"players": players})
    table = f"/games/{made['id']}"
    counts["POST /games/{id}/join"] = other.post(f"{table}/join")[0]
    counts["POST /games/{id}/leave"] = other.post(f"{table}/leave")[0]
    counts["POST /games/{id}/seat-bot"] = program.post(f"{table}/seat-bot", {"username": "robot"})[
        0
    ]
    counts["POST /games/{id}/start"] = program.post(f"{table}/start", {"level": "easy"})[0]
    counts["GET /games/{id}"], seen = program.get(table)
    for _ in range(100):  # the site's bots move at once; the bot account moves through the API
        if seen["legal"]:
            break
        robot_seen = robot.get(table)[1]
        if robot_seen["legal"]:
            robot.post(
                f"{table}/move", {"version": robot_seen["version"], "move": robot_seen["legal"][0]}
            )
        seen = program.get(table)[1]
    counts["POST /games/{id}/move"] = program.post(
        f"{table}/move", {"version": seen["version"], "move": seen["legal"][0]}
    )[0]
    return counts


# The most each route may read and write (the token's look-up included). A move or a start
# reads one more when a bot is first to act (whether anyone watches sets the bot's pace).
BUDGET = {
    "GET /account": 2,
    "POST /games": 6,
    "POST /games/{id}/join": 10,
    "POST /games/{id}/leave": 10,
    "POST /games/{id}/seat-bot": 11,
    "POST /games/{id}/start": 15,
    "GET /games/{id}": 3,
    "POST /games/{id}/move": 14,
}


def test_each_route_reads_a_fixed_number_of_queries(
    alice, bob, make_person, django_capture_on_commit_callbacks
):
    """The same budget for a table of 3 as for one of 5."""
    capture = django_capture_on_commit_callbacks
    robot = Program(make_person("robot"), capture, scopes=("bot",))
    robot.post("/account/bot")
    route_counts(capture, alice, bob, robot, players=3)  # the site's Easy bot account is made
    for players in (3, 5):
        counts = route_counts(capture, alice, bob, robot, players=players)
        over = {route: n for route, n in counts.items() if n > BUDGET[route]}
        assert counts.keys() == BUDGET.keys() and not over, (players, over)
        assert counts["GET /games/{id}"] == BUDGET["GET /games/{id}"]


def test_a_record_costs_the_same_whatever_the_game_s_length(
    act, alice, django_capture_on_commit_callbacks
):
    program = Program(alice, django_capture_on_commit_callbacks)
    counts = []
    for target in (5, None):  # one round; every round of the table
        game = act(create_game, alice, players=2, bots=["easy"], target=target)
        game = play_out(act, game, [alice], random.Random(7))
        count, record = program.get(f"/games/{game.pk}/record")
        assert len(record["moves"]) == MoveRecord.objects.filter(game=game).count()
        counts.append((count, len(record["rounds"])))
    assert counts[0][0] == counts[1][0] == 4 and counts[0][1] < counts[1][1]
