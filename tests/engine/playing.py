"""Shared ways to move a game along in engine tests."""

import random
from collections import Counter

from games.engine import OVER, TRICKS, PlaceToken, apply, legal_moves, new_game, to_act, with_deal
from games.engine.cards import deck


def random_move(state, rng: random.Random):
    """A legal move of a random seat among those that may act."""
    seat = rng.choice(to_act(state))
    return rng.choice(legal_moves(state, seat))


def play_until(state, rng: random.Random, done):
    """Random legal moves until ``done(state)`` holds (or the game is over)."""
    while not done(state) and state.phase != OVER:
        state = apply(state, random_move(state, rng))
    return state


def card_places(state) -> Counter:
    """Every card of the deal, counted once for the one place it is in."""
    places = Counter()
    for hand in state.hands:
        places.update(hand)
    places.update(state.out_of_play)
    places.update(state.trick)
    for trick in state.tricks:
        places.update(trick.cards)
    applied = state.phase in (TRICKS, OVER)
    if applied and state.terms.discard not in ("none", "pass_left"):
        for chosen in state.choices:
            places.update(chosen)
    return places


def full_deck(players: int) -> Counter:
    return Counter(deck(players))


def board_done(players, seed=7, dealer=0, hands=None, tokens=None):
    """A game whose board gives the terms that ``tokens`` leave open (placed in turn order)."""
    state = new_game(players, seed)
    state = with_deal(state, dealer, hands or state.hands)
    for line, box in tokens:
        state = apply(state, PlaceToken(state.turn, line, box))
    return state


# Tokens that leave: first player 1, discard `rule`, trump Y, supertrump B, points 2 (4+ players).
def tokens_for(players, rule="none", first=1, points="2"):
    first_boxes = [("first", str(s)) for s in range(players) if s != first]
    discards = [("discard", b) for b in ("none", "1", "2", "except_1", "pass_left") if b != rule]
    rest = [("trump", "R"), ("trump", "G"), ("trump", "B")]
    rest += [("super", "R"), ("super", "Y"), ("super", "G"), ("super", "none")]
    rest += [("points", p) for p in ("1", "2", "3", "4", "-2") if p != points]
    return first_boxes + discards + rest


def strings_in(data) -> set[str]:
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set(data) | {s for v in data.values() for s in strings_in(v)}
    if isinstance(data, list):
        return {s for v in data for s in strings_in(v)}
    return set()


def random_states(players: int, count: int, seed: int):
    """States along random games at this table size."""
    rng = random.Random(seed)
    state = new_game(players, seed)
    for _ in range(count):
        if state.phase == OVER:
            state = new_game(players, rng.randrange(1000))
        yield state
        state = apply(state, random_move(state, rng))
