"""The records (Round, BoardToken, Trick, Play, MoveRecord) are written from what the engine
decided, and the database keeps them whole."""

import random

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from games import engine, selectors
from games.actions import create_game, submit_move
from games.models import Game, MoveRecord, Play, Round, RoundSeat, Trick

from .conftest import play_out, seat_of, state_of
from .records import assert_records_agree

pytestmark = pytest.mark.django_db

# One whole game per player count, a person among bots (their own seeds), through the write path.
FIXTURE_GAMES = [
    (2, ["easy"], 11),
    (3, ["easy", "medium"], 12),
    (4, ["easy", "easy", "medium"], 13),
    (5, ["easy", "medium", "easy", "easy"], 14),
]


@pytest.mark.parametrize(("players", "bots", "seed"), FIXTURE_GAMES)
def test_every_record_of_a_finished_game_is_what_the_engine_decided(
    act, alice, players, bots, seed
):
    game = act(create_game, alice, players=players, bots=bots)
    game = play_out(act, game, [alice], random.Random(seed))
    assert game.status == Game.Status.FINISHED
    assert Trick.objects.filter(round__game=game).count() > 0
    assert_records_agree(game)


def test_a_game_in_play_has_no_trick_in_play_on_record(act, alice):
    """A trick is written whole once it is taken; the one in play is in the state."""
    game = act(create_game, alice, players=3, bots=["easy", "easy"])
    game = play_out(
        act, game, [alice], random.Random(5), until=lambda s: s.phase == "tricks" and s.trick
    )
    state = state_of(game)
    assert state.trick
    assert Trick.objects.filter(round__game=game).count() == len(state.tricks)
    assert_records_agree(game)


def test_the_checker_sees_a_wrong_record(act, alice):
    """The check above would fail on a record that says otherwise than the engine."""
    game = act(create_game, alice, players=2, bots=["easy"])
    game = play_out(act, game, [alice], random.Random(6), until=lambda s: len(s.results) == 1)
    trick = Trick.objects.filter(round__game=game).order_by("round__number", "number").first()
    players = {p.seat for p in trick.plays.all()}
    Trick.objects.filter(pk=trick.pk).update(winner=(players - {trick.winner}).pop())
    with pytest.raises(AssertionError):
        assert_records_agree(game)


def test_a_move_is_numbered_without_counting_the_log(act, alice):
    game = act(create_game, alice, players=2, bots=["easy"])
    game.refresh_from_db()
    before = game.moves_made
    state = state_of(game)
    move = engine.move_to_json(engine.legal_moves(state, seat_of(game, alice))[0])
    del move["seat"]
    with CaptureQueriesContext(connection) as queries:
        submit_move(alice, game.pk, game.version, move)
    game.refresh_from_db()
    assert game.moves_made == before + 1
    assert game.moves.order_by("-number").first().number == game.moves_made
    assert not [q["sql"] for q in queries if "COUNT(" in q["sql"].upper()]


@pytest.fixture
def a_trick(act, alice):
    game = act(create_game, alice, players=2, bots=["easy"])
    game = play_out(act, game, [alice], random.Random(7), until=lambda s: len(s.tricks) >= 1)
    return Trick.objects.filter(round__game=game).first()


def refused_by_the_database(write):
    with pytest.raises(IntegrityError), transaction.atomic():
        write()


def test_the_database_keeps_the_records_whole(a_trick):
    current = a_trick.round
    refused_by_the_database(
        lambda: Trick.objects.create(round=current, number=a_trick.number, leader=0, winner=0)
    )
    refused_by_the_database(
        lambda: Trick.objects.create(round=current, number=0, leader=0, winner=0)
    )
    refused_by_the_database(
        lambda: Trick.objects.create(round=current, number=99, leader=5, winner=0)
    )
    refused_by_the_database(
        lambda: Trick.objects.create(round=current, number=99, leader=0, winner=5)
    )
    play = a_trick.plays.first()
    refused_by_the_database(
        lambda: Play.objects.create(trick=a_trick, seat=play.seat, card="B2", order=4)
    )
    refused_by_the_database(
        lambda: Play.objects.create(trick=a_trick, seat=4, card="B2", order=play.order)
    )
    refused_by_the_database(lambda: Play.objects.create(trick=a_trick, seat=5, card="B2", order=4))
    refused_by_the_database(lambda: Round.objects.create(game=current.game, number=0, dealer=0))
    refused_by_the_database(lambda: Round.objects.create(game=current.game, number=99, dealer=5))
    refused_by_the_database(lambda: current.tokens.create(seat=0, line="color", box="B", order=40))
    refused_by_the_database(lambda: current.tokens.create(seat=5, line="trump", box="X", order=40))
    token = current.tokens.first()
    covered = set(current.tokens.values_list("line", "box"))
    line, box = next(
        (line, box)
        for line in engine.LINES
        for box in engine.BOXES[line]
        if (line, box) not in covered
    )
    current.tokens.create(seat=0, line=line, box=box, order=40)  # each constraint alone is met
    refused_by_the_database(
        lambda: current.tokens.create(seat=0, line=line, box=box, order=41)
    )  # token_box_once
    refused_by_the_database(
        lambda: current.tokens.create(seat=0, line=token.line, box="X", order=token.order)
    )  # token_order_once
    game = current.game
    seat = game.seats.first()

    def part(**fields):
        values = {"position": 0, "team": 0, "first": False, "bonus": False, "bonus_team": False}
        values |= {"tricks": 0, "loot": 0, "score": 0, **fields}
        return RoundSeat.objects.create(round=current, seat=seat, **values)

    part(position=4, team=1)
    refused_by_the_database(lambda: part(position=4))  # round_seat_once
    refused_by_the_database(lambda: part(position=5))  # round_seat_0_to_4
    refused_by_the_database(lambda: part(team=2))  # round_seat_team_0_or_1
    last = game.moves.order_by("-number").first()

    def move(**fields):
        values = {"number": last.number + 1, "seat": 0, "move": {}, "round": 1, **fields}
        return MoveRecord.objects.create(game=game, **values)

    move(seat=4)
    refused_by_the_database(lambda: move(number=last.number))  # move_number_once
    refused_by_the_database(lambda: move(number=last.number + 2, seat=5))  # move_seat_0_to_4


def test_the_last_trick_of_a_round_is_read_from_the_records(act, alice):
    """The game page shows the round's last trick as recorded, winner included, instead of
    working it out again."""
    game = act(create_game, alice, players=3, bots=["easy", "easy"])
    game = play_out(act, game, [alice], random.Random(8), until=lambda s: len(s.results) == 1)
    last = Trick.objects.filter(round__game=game, round__number=1).order_by("-number").first()
    shown = selectors.game_page(game.pk, alice)["summary"]["last_trick"]
    assert shown["winner"] == last.winner
    assert [(p["seat"], p["card"]) for p in shown["plays"]] == [
        (p.seat, p.card) for p in last.plays.all()
    ]
    other = ({0, 1, 2} - {last.winner}).pop()
    Trick.objects.filter(pk=last.pk).update(winner=other)
    assert selectors.game_page(game.pk, alice)["summary"]["last_trick"]["winner"] == other
