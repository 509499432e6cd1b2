"""Rough worth of a hand before play: how many tricks it should take under given terms.

These are heuristics, tuned by the arena (``python -m games.bots.arena``), not rules. A card's
chance of taking a trick depends on how many cards of its suit can beat it and how many of the
other cards might hold them, on how many lower cards of the suit the hand keeps to wait with,
and, for a side suit, on how often another player can trump it (more players, more often).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from functools import cache

from games.engine.cards import COLORS, SETUPS, VALUE, deck
from games.engine.tricks import POWERS, TRUMP, suits

# How often a side-suit winner survives the others' trumps, by player count.
RUFF_SURVIVAL = {2: 0.95, 3: 0.85, 4: 0.78, 5: 0.7}
LOOT_RISK = 0.25  # a side-suit 1 tends to end up as the other team's loot
# Added to the card-by-card sum so that an average hand is worth its fair share of the tricks:
# fair share (tricks / players) less the sum's mean over 4,000 random hands and terms.
OFFSET = {2: 7.5 - 5.647, 3: 16 / 3 - 3.836, 4: 3.75 - 2.706, 5: 2.4 - 1.826}


@cache
def _deck_powers(players: int, trump: str, super_: str) -> dict[str, tuple[int, ...]]:
    """The powers of the deck's cards, by suit during play."""
    suit_of = suits(trump, super_)
    power = POWERS[trump, super_]
    by_suit: dict[str, list[int]] = {}
    for c in deck(players):
        by_suit.setdefault(suit_of[c], []).append(power[c])
    return {suit: tuple(sorted(p)) for suit, p in by_suit.items()}


@cache
def _seen_fraction(players: int) -> float:
    """Share of the cards I do not hold that are in another hand (2 players: a third)."""
    setup = SETUPS[players]
    return setup.hand * (players - 1) / (setup.deck - setup.hand)


def card_chances(hand: Sequence[str], trump: str, super_: str, players: int) -> dict[str, float]:
    """Each distinct card's rough chance of taking a trick (1s of a side suit: about none)."""
    suit_of = suits(trump, super_)
    power = POWERS[trump, super_]
    deck_powers = _deck_powers(players, trump, super_)
    fraction = _seen_fraction(players)
    by_suit: dict[str, list[str]] = {}
    for c in hand:
        by_suit.setdefault(suit_of[c], []).append(c)
    chances: dict[str, float] = {}
    for suit, cards in by_suit.items():
        cards.sort(key=power.__getitem__, reverse=True)
        powers = deck_powers[suit]
        mine_above = 0  # cards of this hand stronger than c (the hand is strongest first)
        for i, c in enumerate(cards):
            p = power[c]
            if i and power[cards[i - 1]] > p:
                mine_above = i
            if c in chances:  # a second copy: the first one's chance stands
                continue
            above = len(powers) - bisect_right(powers, p) - mine_above
            if p == 100:  # the last supertrump wins: the others' supertrumps are threats
                above += powers.count(100) - sum(1 for d in cards if power[d] == 100)
            threats = above * fraction
            below = len(cards) - i - 1
            if suit == TRUMP:
                if p == 100:
                    chance = max(0.6, 0.95 - 0.12 * threats)
                elif threats < 0.05:
                    chance = 0.95
                else:
                    chance = min(0.85, max(0.05, 0.7 - 0.25 * (threats - below)))
            elif threats < 0.05:
                chance = 0.85 * RUFF_SURVIVAL[players]
            else:
                chance = max(0.0, min(0.6, 0.45 - 0.25 * (threats - below)))
                chance *= RUFF_SURVIVAL[players]
            chances[c] = chance
    return chances


def expected_tricks(hand: Sequence[str], trump: str, super_: str, players: int) -> float:
    """Tricks this hand should take, less the side-suit 1s it may lose as loot.

    Calibrated (``OFFSET``) so that hands average the fair share, tricks / players.
    """
    suit_of = suits(trump, super_)
    chances = card_chances(hand, trump, super_, players)
    total = sum(chances[c] for c in hand)
    trumps = sum(1 for c in hand if suit_of[c] == TRUMP)
    setup = SETUPS[players]
    trump_share = sum(1 for c in deck(players) if suit_of[c] == TRUMP) * setup.hand / setup.deck
    total += 0.3 * max(0.0, trumps - trump_share)  # long trumps win by length
    lengths = Counter(suit_of[c] for c in hand)
    short = sum(1 for color in COLORS if color != trump and lengths[color] <= 1)
    spare = trumps - sum(chances[c] for c in hand if suit_of[c] == TRUMP)
    total += 0.25 * min(short, max(0.0, spare))  # a short side suit lets a low trump ruff
    total -= LOOT_RISK * sum(1 for c in hand if VALUE[c] == 1 and suit_of[c] != TRUMP)
    return total + OFFSET[players]


def keep_values(
    hand: Sequence[str], trump: str, super_: str, players: int, points: int
) -> dict[str, float]:
    """How much each distinct card is worth keeping, for discards and passes (higher: keep).

    With positive points a card is worth its chance to take a trick (trumps a little more, for
    ruffing); side-suit 1s are worth less than nothing (likely loot for the other team). With
    negative points the wish is reversed: likely winners are liabilities, low cards keep the
    hand safe, and 1s are worth keeping to give away as loot.
    """
    suit_of = suits(trump, super_)
    power = POWERS[trump, super_]
    chances = card_chances(hand, trump, super_, players)
    trumps = sum(1 for c in hand if suit_of[c] == TRUMP)
    lengths = Counter(suit_of[c] for c in hand)
    values = {}
    for c in dict.fromkeys(hand):
        suit = suit_of[c]
        one = VALUE[c] == 1 and suit != TRUMP
        if points > 0:
            value = chances[c] + (0.3 if suit == TRUMP else 0.0) + power[c] / 1000
            if one:
                value -= 0.6
            if suit != TRUMP and lengths[suit] <= 2 and trumps >= 3:
                value -= 0.15  # shortening a side suit lets trumps ruff
        else:
            value = -chances[c] - power[c] / 50
            if one:
                value += 0.5
        values[c] = value
    return values
