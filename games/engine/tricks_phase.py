"""The tricks (RULES.md, "A round", 5): the first player leads, each trick's winner leads the next,
and the round ends (``rounds.end_round``) when the hands are empty.
"""

from __future__ import annotations

from .cards import VALUE
from .errors import IllegalMove, gettext_noop
from .moves import PlayCard
from .refusals import check_form
from .rounds import end_round
from .state import TRICKS, GameState, Trick
from .tricks import ONES, SUITS, loot, play_order, trick_winner

# Moves are made once and shared, as the board's (``board_phase.TOKEN_MOVES``).
PLAY_MOVES = [{c: PlayCard(seat, c) for c in VALUE} for seat in range(5)]


def start_tricks(new: GameState) -> GameState:
    """The first trick about to be led by the first player (``new``: a fresh copy)."""
    new.phase = TRICKS
    assert new.terms is not None
    new.leader = new.turn = new.terms.first
    new.trick = ()
    return new


def play_card(state: GameState, move: PlayCard) -> GameState:
    seat, c, kind = move
    # The hottest path: a good move pays three comparisons. The seat's type is checked even when
    # it equals the turn (True == 1), the form fully only once the move is refused anyway.
    if seat != state.turn or type(seat) is not int or kind != "play":
        check_form(move)
        raise IllegalMove("not_your_turn", gettext_noop("It is not your turn."))
    hand = state.hands[seat]
    if c not in hand:
        check_form(move)
        raise IllegalMove("not_in_hand", gettext_noop("You do not hold {card}."), card=c)
    terms = state.terms
    assert terms is not None
    trick = state.trick
    if trick:
        suit_of = SUITS[terms.trump, terms.super]
        led = suit_of[trick[0]]
        if suit_of[c] != led and any(suit_of[h] == led for h in hand):
            raise IllegalMove("must_follow", gettext_noop("You must follow the suit led."))
    new = object.__new__(GameState)  # state.evolve(), inlined: the hottest path
    new.__dict__ = state.__dict__.copy()
    i = hand.index(c)
    hands = list(state.hands)
    hands[seat] = hand[:i] + hand[i + 1 :]
    new.hands = tuple(hands)
    trick = (*trick, c)
    n = state.players
    if len(trick) < n:
        new.trick = trick
        new.turn = (seat + 1) % n
        return new
    finished = take_trick(state, trick)
    winner, taken = finished.winner, finished.loot
    new.tricks = (*state.tricks, finished)
    won = list(state.tricks_won)
    won[winner] += 1
    new.tricks_won = tuple(won)
    if taken:
        looted = list(state.loot_won)
        looted[winner] += len(taken)
        new.loot_won = tuple(looted)
    new.trick = ()
    new.leader = new.turn = winner
    if hands[winner]:
        return new
    return end_round(new)


def take_trick(state: GameState, cards: tuple[str, ...]) -> Trick:
    """The trick ``cards`` (all of them, led by ``state.leader``) make: who takes it, its loot."""
    n = state.players
    leader = state.leader
    terms = state.terms
    assert terms is not None
    winner = trick_winner(leader, cards, n, terms.trump, terms.super)
    taken = (
        ()
        if ONES.isdisjoint(cards)
        else tuple(loot(cards, play_order(leader, n), winner, state.team_of))
    )
    return Trick(leader, cards, winner, taken)
