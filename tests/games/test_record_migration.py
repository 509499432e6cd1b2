"""Migrations 0009 and 0011 on records written before them: each game's moves_made is its move
count, a trick in play (no winner: the old code wrote tricks as they were played) goes, to be
written whole once it is taken, and each finished round gets its seats' parts (RoundSeat)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("games", "0008_game_rematch_of")]
AFTER = [("games", "0011_round_seats")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture(autouse=True)
def back_to_the_latest_schema():
    """The tests after this one need every migration, also those newer than AFTER."""
    yield
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_moves_are_counted_and_tricks_in_play_dropped():
    apps = migrate(BEFORE)
    Game = apps.get_model("games", "Game")
    game = Game.objects.create(players=2, invite_code="old", seed=1, status="active")
    other = Game.objects.create(players=2, invite_code="none", seed=2, status="open")
    for number in (1, 2, 3):
        game.moves.create(number=number, seat=0, move={"seat": 0}, round=1)
    current = apps.get_model("games", "Round").objects.create(game=game, number=1, dealer=0)
    taken = current.tricks.create(number=1, leader=0, winner=1, loot=[])
    taken.plays.create(seat=0, card="B2", order=0)
    in_play = current.tricks.create(number=2, leader=1, winner=None)
    in_play.plays.create(seat=1, card="B3", order=0)
    for position in (0, 1):
        game.seats.create(position=position)
    finished = apps.get_model("games", "Round").objects.create(
        game=game,
        number=2,
        dealer=1,
        first=1,
        discard="none",
        trump="B",
        supertrump="R",
        points=2,
        teams=[[1], [0]],
        bonus=None,
        tricks_won=[6, 9],
        loot_won=[1, 0],
        scores=[14, 18],
    )

    apps = migrate(AFTER)
    Game = apps.get_model("games", "Game")
    assert Game.objects.get(pk=game.pk).moves_made == 3
    assert Game.objects.get(pk=other.pk).moves_made == 0
    Trick = apps.get_model("games", "Trick")
    assert list(Trick.objects.values_list("number", "winner")) == [(1, 1)]
    assert apps.get_model("games", "Play").objects.count() == 1
    parts = apps.get_model("games", "RoundSeat").objects.filter(round_id=finished.pk)
    assert sorted(
        parts.values_list("position", "team", "first", "bonus_team", "tricks", "loot", "score")
    ) == [(0, 1, False, False, 6, 1, 14), (1, 0, True, False, 9, 0, 18)]
    assert not apps.get_model("games", "RoundSeat").objects.exclude(round_id=finished.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_the_round_lists_go_to_round_seat_and_come_back():
    """Migration 0014 drops Round's per-seat lists (RoundSeat has them); going back, they are
    written again from the RoundSeat rows."""
    lists = [("games", "0013_table_chat")]
    dropped = [("games", "0014_round_lists_in_round_seats")]
    apps = migrate(lists)
    game = apps.get_model("games", "Game").objects.create(
        players=2, invite_code="lists", seed=1, status="finished"
    )
    seats = [game.seats.create(position=position) for position in (0, 1)]
    Round = apps.get_model("games", "Round")
    finished = Round.objects.create(
        game=game, number=1, dealer=0, first=1, discard="none", trump="B", supertrump="R",
        points=2, teams=[[1], [0]], tricks_won=[6, 9], loot_won=[1, 0], scores=[14, 18],
    )  # fmt: skip
    in_play = Round.objects.create(game=game, number=2, dealer=1)
    for seat, tricks, loot, score in zip(seats, [6, 9], [1, 0], [14, 18], strict=True):
        finished.seats.create(
            seat=seat, position=seat.position, team=1 - seat.position, first=seat.position == 1,
            bonus=False, bonus_team=False, tricks=tricks, loot=loot, score=score,
        )  # fmt: skip

    apps = migrate(dropped)
    fields = {f.name for f in apps.get_model("games", "Round")._meta.get_fields()}
    assert fields.isdisjoint({"tricks_won", "loot_won", "scores"})
    assert apps.get_model("games", "RoundSeat").objects.count() == 2

    apps = migrate(lists)
    Round = apps.get_model("games", "Round")
    again = Round.objects.get(pk=finished.pk)
    assert (again.tricks_won, again.loot_won, again.scores) == ([6, 9], [1, 0], [14, 18])
    unfinished = Round.objects.get(pk=in_play.pk)
    assert (unfinished.tricks_won, unfinished.loot_won, unfinished.scores) == (None, None, None)
