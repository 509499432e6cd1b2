"""Moves through the one write path: accepted moves, every refusal, bots answering, records."""

import random

import pytest

from games import engine
from games.actions import ActionError, StaleVersion, create_game, submit_move
from games.actions.moves import site_bot
from games.bots import Medium, hard
from games.models import BoardToken, Game, MoveRecord
from tests.bots.helpers import mid_round

from .conftest import play_out, seat_of, state_of
from .records import assert_records_agree

pytestmark = pytest.mark.django_db


def two_people(act, alice, bob, **options):
    game = act(create_game, alice, players=2, **options)
    from games.actions import join_game

    act(join_game, bob, game.pk)
    game.refresh_from_db()
    return game


def to_move(game, alice, bob):
    """(user who must act, the other user) in a two-person game."""
    acting = engine.to_act(state_of(game))
    return (alice, bob) if acting == (seat_of(game, alice),) else (bob, alice)


def refused(act, code, *args):
    before = Game.objects.get(pk=args[1])
    moves = MoveRecord.objects.count()
    with pytest.raises(ActionError) as caught:
        act(submit_move, *args)
    after = Game.objects.get(pk=args[1])
    assert caught.value.code == code
    assert caught.value.message
    assert (after.version, after.state, MoveRecord.objects.count()) == (
        before.version,
        before.state,
        moves,
    )
    return caught.value


def test_a_token_is_recorded_and_the_turn_passes(act, alice, bob):
    game = two_people(act, alice, bob)
    mover, other = to_move(game, alice, bob)
    version = game.version
    act(submit_move, mover, game.pk, version, {"token": ["trump", "R"]})
    game.refresh_from_db()
    assert game.version == version + 1
    token = BoardToken.objects.get()
    assert (token.seat, token.line, token.box, token.order) == (
        seat_of(game, mover),
        "trump",
        "R",
        0,
    )
    record = MoveRecord.objects.get()
    assert record.move == {"seat": seat_of(game, mover), "token": ["trump", "R"]}
    assert not record.by_bot and record.number == 1
    assert game.seats.get(user=other).acting_since is not None
    assert game.seats.get(user=mover).acting_since is None


def test_refusals_change_nothing(act, alice, bob, make_person):
    game = two_people(act, alice, bob)
    mover, other = to_move(game, alice, bob)
    v = game.version
    refused(act, "not_your_turn", other, game.pk, v, {"token": ["trump", "R"]})
    refused(act, "stale", mover, game.pk, v - 1, {"token": ["trump", "R"]})
    refused(act, "not_seated", make_person("carol"), game.pk, v, {"token": ["trump", "R"]})
    refused(act, "no_such_box", mover, game.pk, v, {"token": ["trump", "X"]})
    refused(act, "malformed", mover, game.pk, v, {"token": "trump"})
    refused(act, "malformed", mover, game.pk, v, {"dance": 1})
    refused(act, "no_such_card", mover, game.pk, v, {"play": "Z9"})
    refused(act, "wrong_phase", mover, game.pk, v, {"play": "B1"})
    with pytest.raises(ActionError, match="no such game"):
        act(submit_move, mover, 999999, v, {"token": ["trump", "R"]})
    assert isinstance(
        refused(act, "stale", mover, game.pk, v + 5, {"token": ["trump", "R"]}), StaleVersion
    )


def test_the_last_box_of_a_line_is_refused(act, alice, bob):
    game = two_people(act, alice, bob)
    for box in ("R", "Y", "G"):
        mover, _ = to_move(game, alice, bob)
        act(submit_move, mover, game.pk, game.version, {"token": ["trump", box]})
        game.refresh_from_db()
    mover, _ = to_move(game, alice, bob)
    refused(act, "last_box", mover, game.pk, game.version, {"token": ["trump", "B"]})


def test_card_refusals_in_the_trick_phase(act, alice, bob):
    game = two_people(act, alice, bob)
    game = play_out(act, game, [alice, bob], random.Random(1), until=lambda s: s.trick)
    state = state_of(game)
    seat = state.turn
    mover = alice if seat == seat_of(game, alice) else bob
    led = state.trick[0]
    suit_of = engine.tricks.suits(state.terms.trump, state.terms.super)
    hand = state.hands[seat]
    other_seat_card = next(c for c in state.hands[1 - seat] if c not in hand)
    refused(act, "not_in_hand", mover, game.pk, game.version, {"play": other_seat_card})
    off_suit = [c for c in hand if suit_of[c] != suit_of[led]]
    if off_suit and len(off_suit) < len(hand):
        refused(act, "must_follow", mover, game.pk, game.version, {"play": off_suit[0]})


def test_a_finished_game_refuses_moves_and_its_records_agree_with_a_replay(act, alice, bob):
    game = two_people(act, alice, bob)
    game = play_out(act, game, [alice, bob], random.Random(2))
    assert game.status == Game.Status.FINISHED and game.finished_at
    refused(act, "game_over", alice, game.pk, game.version, {"token": ["trump", "R"]})
    assert_records_agree(game)


def test_bots_answer_and_a_game_against_bots_finishes(act, alice):
    game = act(create_game, alice, players=4, bots=["easy", "medium", "hard"])
    assert game.status == Game.Status.ACTIVE
    game = play_out(act, game, [alice], random.Random(3))
    assert game.status == Game.Status.FINISHED
    records = MoveRecord.objects.filter(game=game)
    assert records.filter(by_bot=True).exists() and records.filter(by_bot=False).exists()
    assert set(records.filter(by_bot=False).values_list("seat", flat=True)) == {0}
    assert_records_agree(game)


def test_an_unfinished_game_replays_too(act, alice):
    game = act(create_game, alice, players=5, bots=["medium"] * 4, target=50)
    game = play_out(act, game, [alice], random.Random(4), until=lambda s: len(s.results) == 1)
    assert_records_agree(game)


def test_the_site_gives_hard_its_time_budget(settings):
    state = mid_round(5, seed=2, tricks=1, cards=0)  # a card to play, worth a search
    seen = engine.view(state, state.turn)
    settings.HARD_BOT_SECONDS = 0.0
    hurried = site_bot("hard", "seed")
    hurried.choose(seen)
    assert hurried.deals == 1, "the time is up after the first deal"
    settings.HARD_BOT_SECONDS = 60.0
    patient = site_bot("hard", "seed")
    patient.choose(seen)
    assert patient.deals == hard.SAMPLES, "it stops at its deals long before the time"
    assert isinstance(site_bot("medium", "seed"), Medium)
