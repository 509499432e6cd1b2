"""PlayoutRound, the playouts' fast trick phase, plays exactly as the engine does; its Medium policy
plays as the Medium bot does, with the very same card values as ``cardplay``."""

import random
from collections import Counter

import pytest

from games.bots.cardplay import card_values, choose_card
from games.bots.determinize import determinize
from games.bots.medium import Medium
from games.bots.playout import _values, medium_card, play_out
from games.bots.playout_round import CARD, PlayoutRound
from games.engine import (
    BOARD,
    TRICKS,
    PlayCard,
    apply,
    legal_moves,
    new_game,
    play_order,
    team_of,
    view,
)
from games.engine.cards import deck
from games.engine.tricks import POWERS, SUITS

from .helpers import mid_round, play_until


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", range(5))
def test_a_round_played_both_ways_ends_the_same(players, seed):
    state = mid_round(players, seed)
    r = PlayoutRound.from_state(state)
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
        r = PlayoutRound.from_state(mid_round(players, seed))
        copy = r.copy()
        while not r.over:
            card = medium_card(r)
            assert card in r.legal()
            r.play(card)
        assert play_out(copy) == r.scores()


def test_a_round_needs_the_trick_phase():
    with pytest.raises(ValueError):
        PlayoutRound.from_state(new_game(3, seed=1))
    assert new_game(3, seed=1).phase == BOARD


def test_copies_are_independent():
    r = PlayoutRound.from_state(mid_round(4, seed=2, tricks=1, cards=0))
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
            card = medium_card(PlayoutRound.from_state(state))
            assert PlayCard(seat, card) == Medium(seed).choose(view(state, seat))
            compared += 1
            state = apply(state, PlayCard(seat, rng.choice(PlayoutRound.from_state(state).legal())))
    assert compared > 20


class StateTable:
    """The table as the seat to play sees it, read from the engine's state as the PlayoutRound
    once did (before issue 19): what ``cardplay`` reads, counted afresh from the cards played."""

    def __init__(self, state) -> None:
        n = self.players = len(state.hands)
        self.seat = state.turn
        self.hand = list(state.hands[state.turn])
        self.trick = list(state.trick)
        self.leader = state.leader
        self.team_of = team_of(state.teams)
        terms = state.terms
        self.points, self.trump, self.super = terms.points, terms.trump, terms.super
        self.suit_of = SUITS[terms.trump, terms.super]
        self.power = POWERS[terms.trump, terms.super]
        self.unplayed = Counter(deck(n))
        self.voids = [set() for _ in range(n)]
        for leader, cards, *_ in (*state.tricks, (state.leader, state.trick)):
            self.unplayed.subtract(cards)
            for s, c in zip(play_order(leader, n), cards, strict=False):
                if self.suit_of[c] != self.suit_of[cards[0]]:
                    self.voids[s].add(self.suit_of[cards[0]])

    def count_from(self, suit: str, power: int) -> int:
        return sum(
            k - self.hand.count(c)
            for c, k in self.unplayed.items()
            if self.suit_of[c] == suit and self.power[c] >= power
        )

    def count_suit(self, suit: str) -> int:
        return sum(k for c, k in self.unplayed.items() if self.suit_of[c] == suit) - sum(
            self.suit_of[c] == suit for c in self.hand
        )


def play_both(state, rng: random.Random, policy: str, r=None):
    """Plays the round of ``state`` to its end through the engine and a PlayoutRound side by side,
    comparing them at every card; Medium's card values (the same floats) where there is a
    choice. Returns the number of choices compared."""
    r = PlayoutRound.from_state(state) if r is None else r
    played_out = play_out(r.copy())  # by Medium, all at once
    rounds = len(state.results)
    choices = 0
    while len(state.results) == rounds:
        seat = state.turn
        assert r.turn == seat and r.leader == state.leader and r.trick == list(state.trick)
        assert r.hands == [list(h) for h in state.hands]
        legal = [m.card for m in legal_moves(state, seat)]
        assert r.legal() == legal
        assert r.tricks_won == list(state.tricks_won) and r.loot_won == list(state.loot_won)
        medium = medium_card(r)
        if len(legal) > 1:
            table = StateTable(state)
            assert _values(r, [CARD[c] for c in legal]) == card_values(table, legal)
            assert medium == choose_card(table, legal)
            choices += 1
        card = medium if policy == "medium" else rng.choice(legal)
        r.play(card)
        state = apply(state, PlayCard(seat, card))
        if state.tricks and len(state.trick) == 0 and len(state.results) == rounds:
            assert r.leader == state.tricks[-1].winner == state.leader
    assert r.over
    result = state.results[-1]
    assert tuple(r.tricks_won) == result.tricks and tuple(r.loot_won) == result.loot
    assert tuple(r.scores()) == result.scores
    if policy == "medium":
        assert tuple(played_out) == result.scores
    return choices


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("policy", ["random", "medium"])
def test_many_random_rounds_play_as_the_engine_and_medium(players, policy):
    """200 rounds per player count and policy, from the first lead or further in, with every
    discard rule: the compact PlayoutRound and its Medium policy against the engine and
    ``cardplay``."""
    choices = 0
    for seed in range(200):
        rng = random.Random(f"{policy}/{seed}")
        state = play_until(new_game(players, seed), rng, lambda s: s.phase == TRICKS)
        if seed % 3 == 0:
            r = PlayoutRound.start(state.hands, state.terms, state.teams, state.bonus, state.leader)
        else:
            hand = len(state.hands[0])
            tricks, cards = rng.randrange(hand), rng.randrange(players)
            state = play_until(
                state, rng, lambda s, t=tricks, c=cards: len(s.tricks) >= t and len(s.trick) >= c
            )
            r = PlayoutRound.from_state(state)
        choices += play_both(state, rng, policy, r)
    assert choices > 1000


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_another_deal_of_the_same_round_is_that_deals_round(players):
    """``with_hands``, as the search uses it for every deal after the first, is ``from_state``."""
    for seed in range(10):
        state = mid_round(players, seed)
        seen = view(state, state.turn)
        guess = determinize(seen, random.Random(seed))
        dealt = PlayoutRound.from_state(state).with_hands(guess.hands)
        fresh = PlayoutRound.from_state(guess)
        assert all(getattr(dealt, name) == getattr(fresh, name) for name in PlayoutRound.__slots__)
        assert play_out(dealt) == play_out(fresh)
