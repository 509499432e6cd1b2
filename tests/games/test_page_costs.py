"""What each page costs in queries, as literal numbers: a page whose count grows with the games,
the seats or the moves it shows would slow down as the site fills (issue 15, "Fast pages")."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.actions import create_game, join_game
from games.actions.moves import play_bot_move
from games.models import Game, Seat

from .conftest import play_out

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def queries(client, url: str, **options) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **options)
    assert response.status_code in (200, 204)
    return [q["sql"] for q in captured]


def test_the_game_fragment_costs_four_queries_five_on_the_board(act, client, alice, bob):
    game = act(create_game, alice, players=3, bots=["easy"])
    act(join_game, bob, game.pk)
    client.force_login(alice)
    url = reverse("game", args=[game.pk])
    client.get(url)  # the first visit of the minute records presence (one write)
    # the session, the player, the game joined to its seats with their players, this round's
    # moves, and on the board, the last trick of the round before (shown with that round's
    # summary)
    assert len(queries(client, url, headers=HX)) == 5
    rng = random.Random(3)
    for phase in ("teams", "discard", "tricks"):
        game = play_out(act, game, [alice, bob], rng, until=lambda s, p=phase: s.phase == p)
        assert len(queries(client, url, headers=HX)) == 4, phase
        assert len(queries(client, url)) == 4 + 1, phase  # the whole page too, with its chat
    game = play_out(act, game, [alice, bob], rng, until=lambda s: s.phase == "board")
    assert game.status == Game.Status.ACTIVE
    assert len(queries(client, url, headers=HX)) == 5  # the next board, and the last round
    game = play_out(act, game, [alice, bob], rng)
    assert game.status == Game.Status.FINISHED
    assert len(queries(client, url, headers=HX)) == 5 + 2  # its rating changes and its rematch
    # the replay and the full move log: the session, the player, the game joined to its seats,
    # every move
    assert len(queries(client, reverse("game_replay", args=[game.pk]), data={"step": 9})) == 4
    assert len(queries(client, reverse("game_log", args=[game.pk]))) == 4


def test_a_poll_that_finds_nothing_new_costs_one_query(act, client, alice, bob):
    game = act(create_game, alice, players=2)
    act(join_game, bob, game.pk)
    game.refresh_from_db()
    client.force_login(alice)
    url = reverse("game_poll", args=[game.pk])
    client.get(url, {"version": game.version})  # presence, once a minute
    assert len(queries(client, url, data={"version": game.version})) == 1


def test_the_lobby_costs_the_same_with_one_table_or_twenty(act, client, alice, bob, make_person):
    client.force_login(alice)
    act(create_game, bob, players=3)
    act(create_game, alice, players=2, bots=["easy"])
    client.get("/")  # presence
    # the session, the player, the open tables, their seats with players, and every seat of
    # alice's games with its player and its game, whether she played the tutorial (its offer)
    assert len(queries(client, "/")) == 6
    for n in range(10):
        act(create_game, make_person(f"host{n}"), players=4)
        act(create_game, alice, players=3, bots=["easy", "medium"])
    assert len(queries(client, "/")) == 6


def test_a_bot_s_move_reads_the_game_its_seats_and_its_round_once(alice):
    """A bot's move reads three rows' worth: the game (locked), its seats with their players,
    read once and handed to the bot levels, the autopilot check, the records (a round's scores),
    the clocks and the bot turns queued next, and the round in play (issue 36, the cost of a
    move). The game's last move also rates the game and tells the players: not counted here."""
    game = create_game(alice, players=4, bots=["easy"] * 3)  # nothing runs on commit here
    Seat.objects.filter(game=game, position=0).update(autopilot=True)  # every seat a bot's
    counted = 0
    while game.status == Game.Status.ACTIVE:
        with CaptureQueriesContext(connection) as captured:
            assert play_bot_move(game.pk, game.version) is not None
        game.refresh_from_db()
        if game.status == Game.Status.ACTIVE:
            reads = [q["sql"] for q in captured if q["sql"].startswith("SELECT")]
            assert len(reads) == 3 and 'FROM "games_seat"' in reads[1], reads
            counted += 1
    assert counted > 500  # every move of a whole game at 4 players, its rounds' ends among them
