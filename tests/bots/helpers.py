"""Shared ways to reach game situations in the bot tests."""

import random
from collections import Counter

from games.engine import (
    OVER,
    TRICKS,
    ChooseTeams,
    PlayCard,
    apply,
    legal_moves,
    new_game,
    to_act,
)


def random_move(state, rng: random.Random):
    seat = rng.choice(to_act(state))
    return rng.choice(legal_moves(state, seat))


def play_until(state, rng: random.Random, done):
    """Random legal moves until ``done(state)`` holds (or the game is over)."""
    while not done(state) and state.phase != OVER:
        state = apply(state, random_move(state, rng))
    return state


def mid_round(players: int, seed: int, tricks: int | None = None, cards: int | None = None):
    """A random game in the trick phase of its first round, after some tricks and cards."""
    rng = random.Random(seed)
    state = play_until(new_game(players, seed), rng, lambda s: s.phase == TRICKS)
    hand = len(state.hands[0])
    tricks = rng.randrange(hand) if tricks is None else tricks
    cards = rng.randrange(players) if cards is None else cards
    return play_until(state, rng, lambda s: len(s.tricks) >= tricks and len(s.trick) >= cards)


def hidden_cards(state, seat: int) -> Counter:
    """The cards ``seat`` cannot see: other hands, other seats' discards, cards out of play."""
    hidden = Counter(state.out_of_play)
    for s, hand in enumerate(state.hands):
        if s != seat:
            hidden.update(hand)
    if state.phase == TRICKS and state.terms.discard not in ("none", "pass_left"):
        for s, chosen in enumerate(state.choices):
            if s != seat:
                hidden.update(chosen)
    return hidden


def round_with(hands, terms: dict, dealer: int = 0, seed: int = 1):
    """A game whose round in play has these hands and ends its board with these terms.

    ``terms`` names the box left open on every line (``{"first": 1, "discard": "none",
    "trump": "Y", "super": "B", "points": 2}``); the other boxes are covered in turn order.
    """
    from games.engine import PlaceToken, with_deal
    from games.engine.board import BOXES

    players = len(hands)
    state = with_deal(new_game(players, seed), dealer, hands)
    for line, boxes in BOXES.items():
        keep = str(terms[line])
        for box in boxes:
            if box != keep and box in state.open[line]:
                state = apply(state, PlaceToken(state.turn, line, box))
    return state


def complete_hands(players: int, *partial):
    """Hands for every seat: the given ones, completed from the rest of the deck in order."""
    from games.engine import SETUPS
    from games.engine.cards import deck

    size = SETUPS[players].hand
    rest = list(deck(players))
    hands = [list(h) for h in partial] + [[] for _ in range(players - len(partial))]
    for hand in hands:
        for c in hand:
            rest.remove(c)
    for hand in hands:
        while len(hand) < size:
            hand.append(rest.pop())
    return hands


# Hands of 15 cards for 4 players: a strong one and a weak one, and a whole deal (seats 0-3).
STRONG = ["B1", "B1", "B1", "Y13", "Y12", "Y11", "Y10", "Y9", "Y8", "Y7", "R13", "G13", "R12"]
STRONG += ["G12", "Y6"]
WEAK = ["R2", "R3", "R4", "R5", "R6", "G2", "G3", "G4", "G5", "G6", "B2", "B3", "B4", "B5", "B6"]


def tricks_round(points, hands, teams=(1, 3)):
    """4 players, seat 1 first and leading, trump Y, no supertrump, no discard."""
    terms = {"first": 1, "discard": "none", "trump": "Y", "super": "none", "points": points}
    state = round_with(complete_hands(4, *hands), terms)
    return apply(state, ChooseTeams(1, teams, None))


def play(state, *cards):
    for c in cards:
        state = apply(state, PlayCard(state.turn, c))
    return state


SEAT0 = ["R1", "R5", "R9", "B2", "B3", "B9", "Y2", "Y3", "G11", "G12", "G4", "G9", "G1", "B4", "B5"]
SEAT1 = ["G10", "G2", "R2", "R3", "R4", "B6", "B7", "B8", "Y4", "Y5", "Y6", "R6", "R7", "R8", "B10"]
SEAT2 = ["G13", "G3", "R10", "R11", "R12", "B11", "B12", "B13", "Y7", "Y8", "Y9", "R13", "B1"]
SEAT2 += ["Y10", "Y11"]
SEAT3 = ["G5", "G6", "G7", "G8", "R1", "R1", "B1", "B1", "Y1", "Y1", "Y1", "Y12", "Y13", "G1"]
SEAT3 += ["G1"]
