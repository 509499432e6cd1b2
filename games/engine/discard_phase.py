"""Discard or pass (RULES.md, "A round", 4), as line 2 says: every seat chooses at once and in
secret, and nothing leaves a hand until all have chosen.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .board import CARDS_CHOSEN, discardable, hands_after
from .cards import sort_cards
from .errors import IllegalMove, gettext_noop
from .moves import Discard, Move, PassCard
from .refusals import refuse_phase
from .state import DISCARD, GameState
from .tricks_phase import start_tricks


def discard_choices(rule: str, seat: int, hand: tuple[str, ...]) -> list[Move]:
    distinct = list(dict.fromkeys(hand))
    if rule == "pass_left":
        return [PassCard(seat, c) for c in distinct]
    if rule == "2":
        return [Discard(seat, pair) for pair in dict.fromkeys(combinations(hand, 2))]
    return [Discard(seat, (c,)) for c in discardable(rule, distinct)]


def check_discard(rule: str, hand: Sequence[str], cards: Sequence[str]) -> None:
    """Refuse (``IllegalMove``) cards that may not be discarded (or passed) under line 2's rule."""
    count = CARDS_CHOSEN[rule]
    if len(cards) != count:
        messages = {
            0: gettext_noop("No card is discarded this round."),
            1: gettext_noop("Choose exactly one card."),
            2: gettext_noop("Choose exactly two cards."),
        }
        raise IllegalMove("card_count", messages[count])
    rest = list(hand)
    for c in cards:
        if c not in rest:
            raise IllegalMove("not_in_hand", gettext_noop("You do not hold {card}."), card=c)
        rest.remove(c)
    allowed = discardable(rule, hand)
    if any(c not in allowed for c in cards):
        raise IllegalMove(
            "discard_a_1",
            gettext_noop("This round you may not discard a 1 while you hold another card."),
        )


def choose_discard(state: GameState, move: Discard | PassCard) -> GameState:
    refuse_phase(state, DISCARD)
    seat = move.seat
    if state.choices[seat] is not None:
        raise IllegalMove(
            "already_chosen", gettext_noop("You have already made your choice for this round.")
        )
    assert state.terms is not None
    rule = state.terms.discard
    if rule == "pass_left" and type(move) is Discard:
        raise IllegalMove(
            "must_pass", gettext_noop("This round you pass a card to the left; nobody discards.")
        )
    if rule != "pass_left" and type(move) is PassCard:
        raise IllegalMove("must_discard", gettext_noop("This round you discard; nobody passes."))
    cards = move.cards if isinstance(move, Discard) else (move.card,)
    check_discard(rule, state.hands[seat], cards)
    new = state.evolve()
    choices = list(state.choices)
    choices[seat] = sort_cards(cards)
    new.choices = tuple(choices)
    if None in choices:
        return new
    # Everyone has chosen: only now do the cards leave the hands (and passes arrive).
    made = [c for c in choices if c is not None]
    new.hands = tuple(sort_cards(h) for h in hands_after(rule, state.hands, made))
    return start_tricks(new)
