"""Knowledge: what a seat infers from its view agrees with the hidden truth."""

import random
from collections import Counter

import pytest

from games.bots.knowledge import Knowledge
from games.engine import TRICKS, new_game, to_act, view
from games.engine.tricks import suits

from .helpers import hidden_cards, mid_round, play_until


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", range(8))
def test_voids_and_the_cards_out_are_what_the_table_really_holds(players, seed):
    state = mid_round(players, seed)
    for seat in range(players):
        k = Knowledge(view(state, seat))
        suit_of = suits(state.terms.trump, state.terms.super)
        for s, voids in enumerate(k.voids):
            assert not {suit_of[c] for c in state.hands[s]} & voids, (s, voids)
        # Every card this seat cannot place is somewhere it cannot see, and nothing else is.
        assert k.outstanding == hidden_cards(state, seat)
        for s, known in enumerate(k.pinned):
            assert not known - Counter(state.hands[s])


def test_voids_are_found_when_a_seat_does_not_follow():
    found = 0
    for seed in range(10):
        state = mid_round(4, seed, tricks=10, cards=0)
        k = Knowledge(view(state, 0))
        suit_of = k.suit_of
        for trick in state.tricks:
            led = suit_of[trick.cards[0]]
            for i, c in enumerate(trick.cards):
                if suit_of[c] != led:
                    assert led in k.voids[(trick.leader + i) % 4]
                    found += 1
    assert found > 10


def test_the_card_passed_left_is_known_to_be_there_until_played():
    for seed in range(40):
        state = play_until(new_game(4, seed), random.Random(seed), lambda s: s.phase == TRICKS)
        if state.terms.discard == "pass_left":
            break
    else:
        pytest.fail("no pass_left round among the seeds")
    for seat in range(4):
        given = state.choices[seat][0]
        k = Knowledge(view(state, seat))
        assert k.pinned[(seat + 1) % 4] == Counter({given: 1})
        assert given in state.hands[(seat + 1) % 4]
        assert sum(sum(p.values()) for p in k.pinned) == 1


def test_before_the_terms_the_suits_are_the_colors():
    state = new_game(3, seed=5)
    k = Knowledge(view(state, to_act(state)[0]))
    assert k.terms is None and k.suit_of["B1"] == "B"
    assert sum(k.outstanding.values()) == 32
