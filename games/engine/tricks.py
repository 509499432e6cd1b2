"""Playing to a Trick, who takes it, and its Loot (RULES.md, "Supertrumps" to "Loot").

These are plain functions of cards and terms so that bots can call them on what a seat sees.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from .cards import ALL_CARDS, COLOR, COLORS, PLAYER_COUNTS, VALUE

TRUMP = "trump"


def _suits(trump: str, super_: str) -> dict[str, str]:
    return {
        c: TRUMP if COLOR[c] == trump or (VALUE[c] == 1 and COLOR[c] == super_) else COLOR[c]
        for c in ALL_CARDS
    }


# Each card's suit during play, by (trump, supertrump): ``TRUMP`` for trump-color cards and
# supertrumps, else its color. The three 1s of the supertrump color are trumps, whatever color
# is printed on them. Built once: the trick phase looks suits up on every move.
SUITS = {(t, s): _suits(t, s) for t in COLORS for s in (*COLORS, "none")}


def suits(trump: str, super_: str) -> dict[str, str]:
    """Each card's suit during play with these terms (see ``SUITS``)."""
    return SUITS[trump, super_]


def is_supertrump(card: str, super_: str) -> bool:
    return VALUE[card] == 1 and COLOR[card] == super_


def legal_cards(hand: Sequence[str], trick: Sequence[str], trump: str, super_: str) -> list[str]:
    """The distinct cards of ``hand`` that may be played to ``trick`` (the cards already in it),
    in the hand's order: those of the suit led, if the hand holds any."""
    if trick:
        suit_of = SUITS[trump, super_]
        led = suit_of[trick[0]]
        hand = [c for c in hand if suit_of[c] == led] or hand
    return list(dict.fromkeys(hand))


def _powers(trump: str, super_: str) -> dict[str, int]:
    suit_of = SUITS[trump, super_]
    return {
        c: 100 if is_supertrump(c, super_) else 20 + VALUE[c] if suit_of[c] == TRUMP else VALUE[c]
        for c in ALL_CARDS
    }


# How strongly each card takes a trick, among cards that can take it (trumps and the led suit).
POWERS = {terms: _powers(*terms) for terms in SUITS}
ONES = frozenset(c for c in ALL_CARDS if VALUE[c] == 1)
# The same for a trick whose led suit is known, by (trump, supertrump, led suit): -1 for the
# cards that cannot take it.
STRENGTHS = {
    (*terms, led): {
        c: power if SUITS[terms][c] in (TRUMP, led) else -1 for c, power in POWERS[terms].items()
    }
    for terms in SUITS
    for led in (*COLORS, TRUMP)
}


def strengths(trump: str, super_: str, first: str) -> dict[str, int]:
    """How strongly each card takes the trick led with ``first``: a card takes it from the one
    holding it if it is at least as strong (of equal cards, the one played last wins); -1
    for a card that cannot take it (neither a trump nor of the suit led)."""
    return STRENGTHS[trump, super_, SUITS[trump, super_][first]]


def winning_index(cards: Sequence[str], trump: str, super_: str) -> int:
    """Index (in play order) of the card that takes the trick.

    The last supertrump wins; else the highest trump; else the highest card of the led suit.
    Equal cards: the one played last wins.
    """
    strength = STRENGTHS[trump, super_, SUITS[trump, super_][cards[0]]]
    best_index, best = 0, -1
    for index, c in enumerate(cards):
        if strength[c] >= best:
            best_index, best = index, strength[c]
    return best_index


# The seats in the order they play to a trick, by player count and leader.
PLAY_ORDER = {
    n: tuple(tuple((lead + k) % n for k in range(n)) for lead in range(n)) for n in PLAYER_COUNTS
}


def play_order(leader: int, players: int) -> tuple[int, ...]:
    """The seats in the order they play to the trick ``leader`` leads: the i-th card of a
    trick is the i-th seat's (clockwise from the leader)."""
    return PLAY_ORDER[players][leader]


def trick_winner(leader: int, cards: Sequence[str], players: int, trump: str, super_: str) -> int:
    """The seat that takes (or, for a trick in play, holds so far) the trick ``leader`` led."""
    return PLAY_ORDER[players][leader][winning_index(cards, trump, super_)]


@cache
def team_of(teams: tuple[tuple[int, ...], tuple[int, ...]]) -> tuple[int, ...]:
    """0 for each seat of the first player's team (``teams[0]``), 1 for the others."""
    team = [0] * (len(teams[0]) + len(teams[1]))
    for s in teams[1]:
        team[s] = 1
    return tuple(team)


def is_loot(card: str, seat: int, winner: int, team_of: Sequence[int]) -> bool:
    """Whether ``card``, played by ``seat`` into a trick that ``winner`` took, is loot."""
    return card in ONES and team_of[seat] != team_of[winner]


def loot(
    cards: Sequence[str], seats: Sequence[int], winner: int, team_of: Sequence[int]
) -> list[str]:
    """The 1s that players outside the winner's team played into the trick."""
    return [c for c, s in zip(cards, seats) if is_loot(c, s, winner, team_of)]  # noqa: B905
