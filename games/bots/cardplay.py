"""Medium's card play, on anything that describes the table from one seat.

These functions serve the Medium bot (through ``Knowledge``, read from a view). The Hard bot's
playouts play the way Medium does with a copy of this arithmetic over their compact state of a
guessed deal (``playout._values``), which tests hold equal to these functions, value for value.
A table, seen from ``seat``, has:

- ``seat``, ``players``, ``trick`` (cards played to the current trick), ``leader``,
  ``team_of`` (0 or 1 per seat), ``points``, ``trump``, ``super``, ``suit_of``, ``power``;
- ``voids``: per seat, the suits it has shown it no longer holds;
- ``count_from(suit, power)``: how many cards of ``suit`` with at least that power may still
  be played by someone else (neither played nor in this seat's hand), and ``count_suit(suit)``.

For each playable card: the chance that the team takes the trick (counting the cards still
out and the voids shown) times what the trick is worth with its loot, less the worth of
spending the card; with negative points the sum is turned around, so the seat ducks.
"""

from __future__ import annotations

from typing import Protocol

from games.engine import play_order
from games.engine.cards import VALUE
from games.engine.tricks import ONES, TRUMP, loot, strengths, winning_index


class Table(Protocol):
    """The table as above (``Knowledge`` is one). The terms, the teams and the powers are None
    before the board is done; card play comes after."""

    seat: int
    players: int
    trick: list[str]
    leader: int
    team_of: tuple[int, ...] | None
    points: int | None
    trump: str | None
    super: str | None
    suit_of: dict[str, str]
    power: dict[str, int] | None
    voids: list[set[str]]

    def count_from(self, suit: str, power: int) -> int: ...

    def count_suit(self, suit: str) -> int: ...


class Spender(Protocol):
    """What ``spend`` reads of a table (the playouts' terms are one)."""

    @property
    def points(self) -> int | None: ...

    @property
    def suit_of(self) -> dict[str, str]: ...

    @property
    def power(self) -> dict[str, int] | None: ...


def chance_holds(t: Table, cards: list[str], at: int | None = None) -> float:
    """A rough chance that the winner of ``cards`` (the trick once ``t.seat`` has played)
    keeps it: that no later seat of the other team beats its card.

    A later seat is a threat if it may still follow with a card that beats it, or may trump
    because it has shown a void in the led suit (or the led suit is nearly gone). 1.0 when
    nobody can beat it as far as this seat knows. ``at``: the winning card's index, if known.
    """
    n = t.players
    later = n - len(cards)
    if not later:
        return 1.0
    assert t.trump is not None and t.super is not None and t.power is not None
    assert t.team_of is not None
    if at is None:
        at = winning_index(cards, t.trump, t.super)
    winner = play_order(t.leader, n)[at]
    suit_of = t.suit_of
    led = suit_of[cards[0]]
    best = t.power[cards[at]]
    if led == TRUMP:
        following, ruffing = t.count_from(TRUMP, best), 0
    elif suit_of[cards[at]] == TRUMP:
        following, ruffing = 0, t.count_from(TRUMP, best)
    else:
        following, ruffing = t.count_from(led, best), t.count_suit(TRUMP)
    if not following and not ruffing:
        return 1.0
    led_left = t.count_suit(led)
    team_of = t.team_of
    voids = t.voids
    chance = 1.0
    for k in range(1, later + 1):
        s = (t.seat + k) % n
        if team_of[s] == team_of[winner]:
            continue
        if following and led not in voids[s]:
            chance *= 0.5 if following > 1 else 0.7
        if ruffing and TRUMP not in voids[s]:
            if led in voids[s]:
                chance *= 0.3
            elif led_left < 2 * later:
                chance *= 0.7
    return chance


def spend(t: Spender, card: str) -> float:
    """What playing ``card`` now costs in what it could do later (negative: a relief)."""
    assert t.points is not None and t.power is not None
    side_one = VALUE[card] == 1 and t.suit_of[card] != TRUMP
    if t.points > 0:
        return -0.25 if side_one else 0.015 * t.power[card]
    return 0.2 if side_one else -0.015 * t.power[card]


def card_values(t: Table, cards: list[str]) -> list[float]:
    """Expected worth of each playable card for this seat's team, in tricks."""
    assert t.team_of is not None and t.points is not None
    assert t.trump is not None and t.super is not None
    seat = t.seat
    n = t.players
    team_of = t.team_of
    ours = team_of[seat]
    trick = t.trick
    sign = 1 if t.points > 0 else -1
    later_mates = any(team_of[(seat + j) % n] == ours for j in range(1, n - len(trick)))
    order = play_order(t.leader, n)
    # Loot so far: 1s the other team played (ours if we take it), and ours (theirs if they do).
    their_ones = our_ones = 0
    if not ONES.isdisjoint(trick):
        their_ones = len(loot(trick, order, seat, team_of))
        our_ones = sum(x in ONES for x in trick) - their_ones
    # Who holds the trick so far, and whether each card would take it from them.
    if trick:
        first = winning_index(trick, t.trump, t.super)
        strength = strengths(t.trump, t.super, trick[0])
        best = strength[trick[first]]
    values = []
    for c in cards:
        cards_now = [*trick, c]
        at = first if trick and strength[c] < best else len(trick)
        holds = chance_holds(t, cards_now, at)
        if team_of[order[at]] == ours:
            taken = holds
        else:
            taken = max(1 - holds, 0.3) if later_mates else 1 - holds
        mine = our_ones + (c in ONES)
        gain = taken * (1 + their_ones) - (1 - taken) * (1 + mine)
        values.append(sign * gain - spend(t, c))
    return values


def choose_card(t: Table, cards: list[str]) -> str:
    """The card with the best expected worth; ties go to the lowest card."""
    if len(cards) == 1:
        return cards[0]
    values = card_values(t, cards)
    top = max(values)
    best = [c for c, v in zip(cards, values, strict=True) if v >= top - 1e-9]
    assert t.power is not None
    return min(best, key=t.power.__getitem__)
