"""A round from its deal to its score, and a game from its first round to its standings.

Chance comes only from the game's seed: the deal of round ``n`` is a shuffle by ``random.Random``
seeded with the seed and ``n``, so the same seed and moves always give the same game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from .board import first_open
from .cards import PLAYER_COUNTS, SETUPS, VALUE, deck, sort_cards
from .scoring import Standings, round_scores, standings
from .state import BOARD, OVER, GameState, RoundResult


def new_game(players: int, seed: int, target: int | None = None) -> GameState:
    """A new game with round 1 dealt. ``target`` plays to a point target instead of fixed rounds."""
    if players not in PLAYER_COUNTS:
        raise ValueError(f"Nyet! is for 2 to 5 players, not {players}")
    if target is not None and target <= 0:
        raise ValueError("the point target must be positive")
    state = object.__new__(GameState)
    state.players = players
    state.seed = seed
    state.target = target
    state.first_dealer = random.Random(f"nyet/{seed}/dealer").randrange(players)
    state.results = ()
    return _deal(state, state.first_dealer, _shuffled_hands(players, seed, 1))


def with_deal(state: GameState, dealer: int, hands: Sequence[Iterable[str]]) -> GameState:
    """The same game with the round in play dealt anew: this dealer, these hands.

    For a known deal (the rules vectors, tests); the next rounds are dealt from the seed again.
    """
    cards = deck(state.players)
    counted = sort_cards(c for hand in hands for c in hand)
    if len(hands) != state.players or any(c not in VALUE for c in counted):
        raise ValueError("one hand of real cards per seat")
    rest = list(cards)
    for c in counted:
        rest.remove(c)  # raises ValueError for a card dealt more often than the deck holds
    sorted_hands = tuple(sort_cards(h) for h in hands)
    if any(len(h) != SETUPS[state.players].hand for h in sorted_hands):
        raise ValueError("every hand must hold the setup's number of cards")
    return _deal(state.evolve(), dealer, (sorted_hands, sort_cards(rest)))


# A deal: the hands, and the cards out of play.
Dealt = tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]


def _shuffled_hands(players: int, seed: int, round_number: int) -> Dealt:
    cards = list(deck(players))
    random.Random(f"nyet/{seed}/round/{round_number}").shuffle(cards)
    size = SETUPS[players].hand
    hands = tuple(sort_cards(cards[s * size : (s + 1) * size]) for s in range(players))
    return hands, sort_cards(cards[players * size :])


def _deal(state: GameState, dealer: int, dealt: Dealt) -> GameState:
    """Start a round on ``state`` (a fresh copy, changed in place here)."""
    n = state.players
    state.dealer = dealer
    state.hands, state.out_of_play = dealt
    state.phase = BOARD
    state.turn = dealer
    state.tokens = ()
    state.open = first_open(n)
    state.terms = None
    state.teams = None
    state.bonus = None
    state.choices = (None,) * n
    state.trick = ()
    state.leader = dealer
    state.tricks = ()
    state.tricks_won = (0,) * n
    state.loot_won = (0,) * n
    return state


def end_round(new: GameState) -> GameState:
    """The round's result on the scorepad, then the next round dealt, or the game over."""
    terms, teams = new.terms, new.teams
    assert terms is not None and teams is not None
    scores = round_scores(teams, new.bonus, terms.points, new.tricks_won, new.loot_won)
    result = RoundResult(
        new.dealer, terms, teams, new.bonus, new.tricks_won, new.loot_won, tuple(scores)
    )
    new.results = (*new.results, result)
    if standings(new.players, new.target, [r.scores for r in new.results]).over:
        new.phase = OVER
        return new
    dealer = (new.dealer + 1) % new.players
    return _deal(new, dealer, _shuffled_hands(new.players, new.seed, len(new.results) + 1))


def game_standings(state: GameState) -> Standings:
    """Totals, whether the game is over, and its winners."""
    return standings(state.players, state.target, [r.scores for r in state.results])
