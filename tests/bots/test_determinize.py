"""determinize: a guessed full state that the seat could not tell from the real one."""

import random
from collections import Counter

import pytest

from games.bots.determinize import Dealer, _careful_deal, _fits, determinize
from games.bots.knowledge import Knowledge
from games.engine import (
    BOARD,
    DISCARD,
    OVER,
    TEAMS,
    TRICKS,
    apply,
    legal_moves,
    new_game,
    to_act,
    view,
)
from games.engine.cards import deck
from games.engine.tricks import suits

from .helpers import hidden_cards, mid_round, play_until, random_move

PHASES = [BOARD, TEAMS, DISCARD, TRICKS]


def situations(players, seeds):
    """(state, seat) pairs from random games, in every phase before the game ends."""
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(players, seed)
        while state.phase != OVER and len(state.results) < 1:
            if rng.random() < 0.15 or state.phase != TRICKS:
                yield state, rng.choice(to_act(state))
            state = apply(state, random_move(state, rng))


def all_cards(state) -> Counter:
    places = Counter(state.out_of_play)
    for hand in state.hands:
        places.update(hand)
    places.update(state.trick)
    for trick in state.tricks:
        places.update(trick.cards)
    if state.phase == TRICKS and state.terms.discard not in ("none", "pass_left"):
        for chosen in state.choices:
            places.update(chosen)
    return places


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_guessed_state_shows_the_seat_exactly_its_view(players):
    rng = random.Random(players)
    phases = set()
    for state, seat in situations(players, range(6)):
        seen = view(state, seat)
        guess = determinize(seen, rng)
        assert view(guess, seat) == seen
        phases.add(state.phase)
        # Same public information and own hand; every card of the deck in exactly one place.
        assert guess.hands[seat] == state.hands[seat]
        assert [len(h) for h in guess.hands] == [len(h) for h in state.hands]
        assert guess.tokens == state.tokens and guess.tricks == state.tricks
        assert all_cards(guess) == Counter(deck(players))
    assert phases >= ({BOARD, DISCARD, TRICKS} if players == 2 else set(PHASES))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", range(6))
def test_guessed_hands_respect_voids_and_the_passed_card(players, seed):
    state = mid_round(players, seed)
    seat = state.turn
    seen = view(state, seat)
    k = Knowledge(seen)
    suit_of = suits(state.terms.trump, state.terms.super)
    for sample in range(5):
        guess = determinize(seen, random.Random(sample))
        for s, hand in enumerate(guess.hands):
            assert not {suit_of[c] for c in hand} & k.voids[s]
            assert not k.pinned[s] - Counter(hand)
        if state.terms.discard == "except_1":
            assert all(c[1:] != "1" for s, ch in enumerate(guess.choices) if s != seat for c in ch)
        assert hidden_cards(guess, seat) == k.outstanding == hidden_cards(state, seat)


def test_guesses_differ_and_the_seed_repeats_them():
    state = mid_round(4, seed=3, tricks=2, cards=1)
    seen = view(state, state.turn)
    guesses = [determinize(seen, random.Random(i)).hands for i in range(5)]
    assert len({tuple(g) for g in guesses}) == 5
    assert determinize(seen, random.Random(7)).hands == determinize(seen, random.Random(7)).hands


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_guessed_state_plays_on_to_the_end_of_the_round(players):
    rng = random.Random(players)
    for seed in range(3):
        state = mid_round(players, seed)
        guess = determinize(view(state, state.turn), rng)
        rounds = len(guess.results)
        guess = play_until(guess, rng, lambda s, r=rounds: len(s.results) > r)
        assert len(guess.results) == rounds + 1
        left = len(state.hands[state.leader]) + (1 if state.trick else 0)
        assert sum(guess.results[-1].tricks) == len(state.tricks) + left


def test_a_late_seat_short_of_suits_still_gets_a_consistent_deal():
    """Many voids leave few deals: the careful draw (Hall's condition) always finds one."""
    takers = {"a": [0], "b": [0, 1], "c": [1, 2], "d": [2]}
    cards = ["a", "a", "b", "c", "c", "d"]
    for seed in range(50):
        dealt = _careful_deal(cards, takers, [3, 1, 2], random.Random(seed))
        assert dealt is not None
        where = Counter(i for i, _ in dealt)
        assert where == Counter({0: 3, 1: 1, 2: 2})
        assert all(i in takers[c] for i, c in dealt)
    assert not _fits(Counter({frozenset([0]): 2}), [1, 5])


def test_legal_moves_of_the_guess_are_the_seats_own():
    state = mid_round(5, seed=4, tricks=3, cards=2)
    guess = determinize(view(state, state.turn), random.Random(1))
    assert legal_moves(guess, state.turn) == legal_moves(state, state.turn)


def test_the_guess_sets_every_field_a_real_state_has():
    """determinize builds a GameState field by field: a new engine field must show up here."""
    for players in (2, 5):
        state = mid_round(players, seed=6)
        guess = determinize(view(state, state.turn), random.Random(2))
        assert set(vars(guess)) == set(vars(state))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_dealer_kept_for_many_deals_deals_as_a_new_one_each_time(players):
    """Hard keeps one ``Dealer`` per move; the deals must be those of a fresh one per deal."""
    for state, seat in situations(players, range(4)):
        seen = view(state, seat)
        k = Knowledge(seen)
        dealer = Dealer(k)
        kept, fresh = random.Random(seat), random.Random(seat)
        for _ in range(3):
            assert determinize(seen, kept, k, dealer) == determinize(seen, fresh)
