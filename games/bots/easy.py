"""The Easy bot: legal and a little sensible, with simple habits and no counting.

- Board: cover the trump color it holds fewest of, else any box but its own first-player box.
- Teams: any choice.
- Discard or pass: its lowest cards.
- Tricks: with positive points, win with its highest card when it can and its partner is not
  already winning, else play its lowest card; with negative points, always its lowest card.
"""

from __future__ import annotations

import random

from games.engine import (
    ChooseTeams,
    Discard,
    Move,
    PassCard,
    PlaceToken,
    PlayCard,
    View,
    move_from_json,
)
from games.engine.cards import VALUE

from .knowledge import Knowledge, all_of


class Easy:
    def __init__(self, seed: int | str = 0) -> None:
        self.random = random.Random(seed)

    def choose(self, seen: View) -> Move:
        legal = [move_from_json(m) for m in seen["legal"]]
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        k = Knowledge(seen)
        if isinstance(first, PlaceToken):
            return self._token(k, all_of(PlaceToken, legal))
        if isinstance(first, ChooseTeams):
            return self.random.choice(legal)
        if isinstance(first, PassCard):
            return min(all_of(PassCard, legal), key=lambda m: VALUE[m.card])
        if isinstance(first, PlayCard):
            return PlayCard(k.seat, self._card(k, [m.card for m in all_of(PlayCard, legal)]))
        return min(all_of(Discard, legal), key=lambda m: sum(VALUE[c] for c in m.cards))

    def _token(self, k: Knowledge, legal: list[PlaceToken]) -> PlaceToken:
        trumps = [m for m in legal if m.line == "trump"]
        if trumps and self.random.random() < 0.5:
            return min(trumps, key=lambda m: sum(c[0] == m.box for c in k.hand))
        others = [m for m in legal if not (m.line == "first" and m.box == str(k.seat))]
        return self.random.choice(others or legal)

    def _card(self, k: Knowledge, cards: list[str]) -> str:
        power = k.power
        assert power is not None and k.points is not None  # the board is done
        low = min(cards, key=power.__getitem__)
        if k.points < 0 or not k.trick:
            return low
        if k.mates(k.winner_of(k.trick + [low])) and not k.takes_lead(low):
            return low
        high = max(cards, key=power.__getitem__)
        return high if k.takes_lead(high) else low
