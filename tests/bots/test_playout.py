"""Round, the playouts' fast trick phase, plays exactly as the engine does; its Medium policy
plays as the Medium bot does."""

import random

import pytest

from games.bots.medium import Medium
from games.bots.playout import Round, medium_card, play_out
from games.engine import BOARD, PlayCard, apply, legal_moves, new_game, view

from .helpers import mid_round


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", range(5))
def test_a_round_played_both_ways_ends_the_same(players, seed):
    state = mid_round(players, seed)
    r = Round.from_state(state)
    rounds = len(state.results)
    rng = random.Random(seed)
    while len(state.results) == rounds:
        seat = state.turn
        assert r.turn == seat and r.trick == list(state.trick)
        assert r.legal() == [m.card for m in legal_moves(state, seat)]
        assert r.tricks_won == list(state.tricks_won) and r.loot_won == list(state.loot_won)
        card = rng.choice(r.legal())
        r.play(card)
        state = apply(state, PlayCard(seat, card))
    assert r.over
    result = state.results[-1]
    assert tuple(r.tricks_won) == result.tricks and tuple(r.loot_won) == result.loot
    assert tuple(r.scores()) == result.scores


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_medium_card_is_always_legal_and_play_out_finishes(players):
    for seed in range(8):
        r = Round.from_state(mid_round(players, seed))
        copy = r.copy()
        while not r.over:
            card = medium_card(r)
            assert card in r.legal()
            r.play(card)
        assert play_out(copy) == r.scores()


def test_a_round_needs_the_trick_phase():
    with pytest.raises(ValueError):
        Round.from_state(new_game(3, seed=1))
    assert new_game(3, seed=1).phase == BOARD


def test_copies_are_independent():
    r = Round.from_state(mid_round(4, seed=2, tricks=1, cards=0))
    copy = r.copy()
    copy.play(copy.legal()[0])
    assert len(copy.trick) == 1 and not r.trick
    assert sum(map(len, copy.hands)) == sum(map(len, r.hands)) - 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_medium_card_plays_as_the_medium_bot_does(players):
    """Both count the cards not played and not in hand; without discards that is the same."""
    compared = 0
    for seed in range(30):
        state = mid_round(players, seed)
        if state.terms.discard not in ("none", "pass_left"):
            continue
        rng = random.Random(seed)
        rounds = len(state.results)
        while len(state.results) == rounds:
            seat = state.turn
            card = medium_card(Round.from_state(state))
            assert PlayCard(seat, card) == Medium(seed).choose(view(state, seat))
            compared += 1
            state = apply(state, PlayCard(seat, rng.choice(Round.from_state(state).legal())))
    assert compared > 20
