"""Cards, the deck and the setup table (RULES.md, "Material" and "Setup by player count").

A card is its notation, a short string: color letter and value (``"B1"``, ``"Y13"``). The three
1s of a color are the same card three times; a hand may hold a card more than once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

COLORS = ("B", "R", "Y", "G")


class Setup(NamedTuple):
    """What the player count decides, for the whole game."""

    players: int
    top_value: int  # 3 players play without the 11s, 12s and 13s
    hand: int
    rounds: int
    bonus: bool

    @property
    def deck(self) -> int:
        return len(COLORS) * (self.top_value + 2)

    @property
    def unused(self) -> int:
        return self.deck - self.hand * self.players


SETUPS = {
    2: Setup(players=2, top_value=13, hand=15, rounds=8, bonus=False),
    3: Setup(players=3, top_value=10, hand=16, rounds=9, bonus=True),
    4: Setup(players=4, top_value=13, hand=15, rounds=8, bonus=False),
    5: Setup(players=5, top_value=13, hand=12, rounds=10, bonus=True),
}
PLAYER_COUNTS = tuple(SETUPS)


def card(color: str, value: int) -> str:
    return f"{color}{value}"


def _all_cards() -> tuple[str, ...]:
    return tuple(card(c, v) for c in COLORS for v in range(1, 14))


ALL_CARDS = _all_cards()
COLOR = {c: c[0] for c in ALL_CARDS}
VALUE = {c: int(c[1:]) for c in ALL_CARDS}
# Sorting key for a hand: by color in COLORS order, then by value.
SORT_KEY = {c: COLORS.index(c[0]) * 100 + VALUE[c] for c in ALL_CARDS}


def _deck(players: int) -> tuple[str, ...]:
    top = SETUPS[players].top_value
    return tuple(card(c, v) for c in COLORS for v in [1, 1, 1, *range(2, top + 1)])


DECKS = {players: _deck(players) for players in PLAYER_COUNTS}


def deck(players: int) -> tuple[str, ...]:
    """The cards used with this many players, sorted: three 1s and one of each 2..top per color."""
    return DECKS[players]


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=SORT_KEY.__getitem__))


def is_card(text: object) -> bool:
    return isinstance(text, str) and text in COLOR
