"""``selectors.seat_of`` / ``position_of``: the one look-up of a user's seat, free when the
game came with its seats, one query otherwise, none for an anonymous visitor."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import selectors
from games.actions import create_game, join_game
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(act, alice, bob):
    game = act(create_game, alice, players=3, bots=["easy"])
    act(join_game, bob, game.pk)
    return game


def counted(look_up):
    with CaptureQueriesContext(connection) as queries:
        found = look_up()
    return found, len(queries)


def test_a_game_with_its_seats_answers_without_a_query(table, alice, bob, carol):
    game = selectors.with_seats(Game.objects.filter(pk=table.pk)).get()
    assert counted(lambda: selectors.position_of(game, alice)) == (0, 0)
    seat, queries = counted(lambda: selectors.seat_of(game, bob))
    assert (seat.position, seat.user_id, queries) == (2, bob.pk, 0)
    assert counted(lambda: selectors.seat_of(game, carol)) == (None, 0)


def test_a_game_id_costs_one_query(table, alice, bob, carol):
    assert counted(lambda: selectors.position_of(table.pk, bob)) == (2, 1)
    assert counted(lambda: selectors.position_of(table, alice)) == (0, 1)
    assert counted(lambda: selectors.seat_of(table.pk, carol)) == (None, 1)
    seat, queries = counted(lambda: selectors.seat_of(table, alice))
    assert (seat.position, queries) == (0, 1)


def test_an_anonymous_visitor_has_no_seat_and_costs_nothing(table):
    assert counted(lambda: selectors.seat_of(table.pk, AnonymousUser())) == (None, 0)
    assert counted(lambda: selectors.position_of(table, AnonymousUser())) == (None, 0)
