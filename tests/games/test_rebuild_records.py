"""The records can be rebuilt from the seed and the move log (``games.actions.records``): a
rebuild writes the very rows the write path wrote, ``check_records`` finds any row or state that
says otherwise than the replay, ``rebuild_records`` puts it right, and the hourly sweep of the
games finished lately finds it too, writing nothing."""

import logging
import random
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games import clock, engine, queue, tasks
from games.actions import create_game
from games.actions.records import check_records, rebuild_records
from games.models import BoardToken, Game, MoveRecord, Play, Round, RoundSeat, Seat, Trick

from .conftest import play_out
from .records import assert_records_agree

pytestmark = pytest.mark.django_db


PART_FIELDS = ["round__number", "position", "seat__position", "team", "first", "bonus"]
PART_FIELDS += ["bonus_team", "tricks", "loot", "score"]


def stored(game: Game) -> dict:
    """Everything the write path wrote for ``game``, by what names each row (not its id, which a
    rebuild renews)."""
    game.refresh_from_db()
    of_game = {"round__game": game}
    return {
        "game": (game.state, game.moves_made, game.version),
        "seats": list(Seat.objects.filter(game=game).values_list("position", "score")),
        "rounds": list(
            Round.objects.filter(game=game).values_list(
                "number", "dealer", "discard", "trump", "supertrump", "points"
            )
        ),
        "tokens": list(
            BoardToken.objects.filter(**of_game)
            .order_by("round__number", "order")
            .values_list("round__number", "order", "seat", "line", "box")
        ),
        "tricks": list(
            Trick.objects.filter(**of_game)
            .order_by("round__number", "number")
            .values_list("round__number", "number", "leader", "winner", "loot")
        ),
        "plays": list(
            Play.objects.filter(trick__round__game=game)
            .order_by("trick__round__number", "trick__number", "order")
            .values_list("trick__round__number", "trick__number", "order", "seat", "card")
        ),
        "parts": list(
            RoundSeat.objects.filter(**of_game)
            .order_by("round__number", "position")
            .values_list(*PART_FIELDS)
        ),
    }


def finished_game(act, alice) -> Game:
    game = act(create_game, alice, players=2, bots=["easy"])
    game = play_out(act, game, [alice], random.Random(21))
    assert game.status == Game.Status.FINISHED
    return game


def game_in_round_2(act, alice) -> Game:
    """Round 1 over (its seats' parts written), round 2 with a trick taken and one in play."""
    game = act(create_game, alice, players=3, bots=["easy", "easy"])
    return play_out(
        act,
        game,
        [alice],
        random.Random(22),
        until=lambda s: len(s.results) == 1 and s.tricks and s.trick,
    )


@pytest.mark.parametrize("make", [finished_game, game_in_round_2])
def test_a_rebuild_writes_the_rows_the_write_path_wrote(act, alice, make):
    game = make(act, alice)
    before = stored(game)
    assert before["tricks"] and before["parts"] and before["tokens"]
    assert check_records(game.pk) == []
    assert rebuild_records(game.pk) == []
    assert stored(game) == before  # the version too: no open page is sent to fetch again
    assert_records_agree(game)


def run(command: str, *args) -> str:
    out = StringIO()
    call_command(command, *args, stdout=out)
    return out.getvalue()


def a_trick(game):
    return Trick.objects.filter(round__game=game).order_by("round__number", "number").first()


# Each wrong record, and the words check_records says about it.
CORRUPTIONS = [
    (
        lambda g: Trick.objects.filter(pk=a_trick(g).pk).update(winner=a_trick(g).winner ^ 1),
        "round 1 trick 1: winner",
    ),
    (lambda g: a_trick(g).plays.filter(order=1).delete(), "round 1 trick 1 play 1: missing"),
    (
        lambda g: BoardToken.objects.filter(round__game=g, order=0).delete(),
        "round 1 token 0: missing",
    ),
    (lambda g: Round.objects.filter(game=g, number=1).update(trump="X"), "round 1: trump 'X'"),
    (
        lambda g: Round.objects.create(game=g, number=9, dealer=0),
        "round 9: not in the replay",
    ),
    (
        lambda g: RoundSeat.objects.filter(round__game=g, position=0).update(score=99),
        "round 1 seat 0: score 99",
    ),
    (lambda g: Seat.objects.filter(game=g, position=1).update(score=-50), "seat 1 score"),
    (
        lambda g: Game.objects.filter(pk=g.pk).update(moves_made=g.moves.count() + 3),
        "moves made",
    ),
    (
        lambda g: Game.objects.filter(pk=g.pk).update(
            state=engine.state_to_json(engine.new_game(g.players, g.seed, g.target))
        ),
        "state: not the replay's",
    ),
]


def test_check_records_finds_each_wrong_record_and_rebuild_records_puts_it_right(act, alice):
    game = game_in_round_2(act, alice)
    right = stored(game)
    assert (
        run("check_records", str(game.pk)).strip() == "1 games checked: all agree with their replay"
    )
    for corrupt, said in CORRUPTIONS:
        corrupt(game)
        with pytest.raises(CommandError) as failed:
            run("check_records", str(game.pk))
        assert failed.value.returncode == 1
        assert "1 of 1 games differ" in str(failed.value)
        out = StringIO()
        with pytest.raises(CommandError):
            call_command("check_records", "--all", stdout=out)
        line = out.getvalue().strip()
        assert line.startswith(f"game {game.pk}: ") and said in line, (said, line)
        assert "differences fixed" in run("rebuild_records", str(game.pk))
        assert "all agree" in run("check_records", str(game.pk))
        now = stored(game)
        state_was_wrong = said.startswith("state")
        # A state put right moves the version on, so that open pages fetch it again.
        assert now["game"][2] == right["game"][2] + state_was_wrong
        assert {**now, "game": now["game"][:2]} == {**right, "game": right["game"][:2]}
        right = now
    assert_records_agree(game)


def test_a_log_that_does_not_replay_is_reported_and_left_as_it_is(act, alice):
    game = game_in_round_2(act, alice)
    MoveRecord.objects.filter(game=game, number=3).delete()
    right = stored(game)
    with pytest.raises(CommandError) as failed:
        run("check_records", str(game.pk))
    assert failed.value.returncode == 1
    with pytest.raises(CommandError) as failed:
        out = StringIO()
        call_command("rebuild_records", str(game.pk), stdout=out)
    assert f"game {game.pk}: not rebuilt: the move numbers have gaps" in out.getvalue()
    assert "could not be rebuilt" in str(failed.value)
    assert stored(game) == right


def test_the_sweep_finds_a_recent_game_that_differs_and_changes_nothing(act, alice, caplog):
    game = finished_game(act, alice)
    long_ago = finished_game(act, alice)
    Game.objects.filter(pk=long_ago.pk).update(
        finished_at=clock.now() - timedelta(hours=tasks.RECORDS_CHECK_HOURS + 1)
    )
    with caplog.at_level(logging.ERROR, logger="games.tasks"):
        assert tasks.check_recent_records.delay().get() == 1  # the recent game, found alike
    assert not [r for r in caplog.records if r.name == "games.tasks"]
    for wrong in (game, long_ago):
        Trick.objects.filter(pk=a_trick(wrong).pk).update(winner=a_trick(wrong).winner ^ 1)
    before = stored(game)
    with caplog.at_level(logging.ERROR, logger="games.tasks"):
        assert tasks.check_recent_records.delay().get() == 1
        assert tasks.check_recent_records.delay().get() == 1  # twice: the same, nothing written
    lines = [r.getMessage() for r in caplog.records if r.name == "games.tasks"]
    assert len(lines) == 2
    assert all(f"game {game.pk} differs from its replay: round 1 trick 1" in s for s in lines)
    assert stored(game) == before


def test_the_sweep_checks_the_recent_games_in_short_tasks_of_a_batch_each(act, alice, monkeypatch):
    # Games with a trick taken, said finished now: a check needs no game to be over.
    games = [
        play_out(
            act,
            act(create_game, alice, players=2, bots=["easy"]),
            [alice],
            random.Random(seed),
            until=lambda s: s.tricks,
        )
        for seed in (1, 2, 3)
    ]
    Game.objects.filter(pk__in=[g.pk for g in games]).update(finished_at=clock.now())
    queued = []
    monkeypatch.setattr(queue, "publish", lambda *task, **options: queued.append(task) or True)
    monkeypatch.setattr(tasks, "RECORDS_CHECK_BATCH", 2)
    assert tasks.check_recent_records.delay().get() == 3
    assert [name for name, _ in queued] == ["games.tasks.check_records_of"] * 2
    assert sorted(pk for _, batch in queued for pk in batch) == sorted(g.pk for g in games)
    assert [len(batch) for _, batch in queued] == [2, 1]
    Trick.objects.filter(pk=a_trick(games[2]).pk).update(winner=a_trick(games[2]).winner ^ 1)
    assert [tasks.check_records_of.delay(batch).get() for _, batch in queued] == [0, 1]
