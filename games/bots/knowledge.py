"""What a seat knows about the round in play, read from its view and nothing else.

``Knowledge(view)`` gathers what every bot needs: the terms, the teams, the cards played this
round and by whom, the suits each seat has shown it no longer holds (it did not follow), the
cards whose place is unknown, and the cards known to be in another seat's hand (the card this
seat passed to its left, until that seat plays it). The rules come from ``games.engine.tricks``.
It is also a table for ``cardplay`` (``count_from``, ``count_suit``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TypeVar, cast

from games.engine import (
    OVER,
    PASS_LEFT,
    TRICKS,
    Move,
    Terms,
    View,
    cards_discarded,
    play_order,
    team_of,
    trick_winner,
)
from games.engine.cards import COLOR, SETUPS, deck
from games.engine.tricks import POWERS, suits, winning_index

APPLIED = (TRICKS, OVER)  # phases in which the discards and passes have been applied

M = TypeVar("M", bound=Move)


def all_of(kind: type[M], legal: Sequence[Move]) -> list[M]:
    """``legal`` (the same list), typed as what it holds: moves of ``kind`` only, since the
    moves open to a seat are all of one kind (the phase's). Nothing is checked."""
    return cast(list[M], legal)


class Knowledge:
    """What ``view["seat"]`` knows now. Plain data; build a new one for every view."""

    def __init__(self, seen: View) -> None:
        self.seen = seen
        n = self.players = seen["players"]
        seat = seen["seat"]
        assert seat is not None, "a seat's view: a spectator's holds no hand to reason from"
        self.seat = seat
        self.phase = seen["phase"]
        self.hand: list[str] = list(seen["hand"])
        self.hand_sizes: list[int] = list(seen["hand_sizes"])
        self.tricks_per_round = SETUPS[n].hand
        terms = self.terms = None if seen["terms"] is None else Terms.from_json(seen["terms"])
        if terms is None:
            self.suit_of: dict[str, str] = COLOR
            self.power: dict[str, int] | None = None
            self.trump: str | None = None
            self.super: str | None = None
            self.points: int | None = None
        else:
            self.suit_of = suits(terms.trump, terms.super)
            self.power = POWERS[terms.trump, terms.super]
            self.trump, self.super, self.points = terms.trump, terms.super, terms.points
        teams = seen["teams"]
        self.teams = None if teams is None else (tuple(teams[0]), tuple(teams[1]))
        self.team_of = None if self.teams is None else team_of(self.teams)
        self.bonus = seen["bonus"]
        self.trick: list[str] = list(seen["trick"]["cards"])
        self.leader: int = seen["trick"]["leader"]

        # Cards played this round, by seat, and the suits each seat has shown it is out of.
        self.played_by: list[Counter[str]] = [Counter() for _ in range(n)]
        self.voids: list[set[str]] = [set() for _ in range(n)]
        for trick in (*seen["tricks"], seen["trick"]):
            cards = trick["cards"]
            if not cards:
                continue
            led = self.suit_of[cards[0]]
            for s, c in zip(play_order(trick["leader"], n), cards, strict=False):
                self.played_by[s][c] += 1
                if self.suit_of[c] != led:
                    self.voids[s].add(led)
        self.played: Counter[str] = Counter()
        for by_seat in self.played_by:
            self.played.update(by_seat)

        # My own discards (out of play) and the card I passed (now the left seat's).
        rule = None if terms is None else terms.discard
        choice = seen["choice"] or []
        applied = self.phase in APPLIED
        out_of_play = applied and rule is not None and cards_discarded(rule)
        self.discarded: Counter[str] | dict[str, int] = Counter(choice) if out_of_play else {}
        self.pinned: list[Counter[str]] = [Counter() for _ in range(n)]
        if applied and rule == PASS_LEFT and choice:
            left = (seat + 1) % n
            given = choice[0]
            if self.played_by[left][given] == 0:
                self.pinned[left][given] = 1

        # Cards I cannot place: in the other hands, their discards, or out of play.
        unseen = Counter(deck(n))
        unseen.subtract(self.hand)
        unseen.subtract(self.played)
        unseen.subtract(self.discarded)
        for known in self.pinned:
            unseen.subtract(known)
        self.unseen = +unseen
        # Cards another seat may hold: the unseen ones and the pinned ones.
        self.outstanding = Counter(self.unseen)
        for known in self.pinned:
            self.outstanding.update(known)
        # The outstanding cards by suit, strongest first: (power, count).
        self._by_suit: dict[str, list[tuple[int, int]]] = {}
        power = self.power
        if power is not None:
            for c, count in sorted(self.outstanding.items(), key=lambda x: -power[x[0]]):
                self._by_suit.setdefault(self.suit_of[c], []).append((power[c], count))

    # --- the table, as ``cardplay`` reads it -------------------------------------------------

    def count_from(self, suit: str, power: int) -> int:
        """How many outstanding cards of ``suit`` have at least this power."""
        total = 0
        for p, count in self._by_suit.get(suit, ()):
            if p < power:
                break
            total += count
        return total

    def count_suit(self, suit: str) -> int:
        return sum(count for _, count in self._by_suit.get(suit, ()))

    def mates(self, seat: int) -> bool:
        """Whether ``seat`` is on this seat's team (itself included)."""
        return self.team_of is not None and self.team_of[seat] == self.team_of[self.seat]

    def winner_of(self, cards: list[str]) -> int:
        """The seat whose card takes ``cards`` (the trick once this seat has played)."""
        assert self.trump is not None and self.super is not None  # the board is done
        return trick_winner(self.leader, cards, self.players, self.trump, self.super)

    def takes_lead(self, card: str) -> bool:
        """Whether ``card``, played now by this seat, would hold the trick so far."""
        cards = [*self.trick, card]
        assert self.trump is not None and self.super is not None
        return winning_index(cards, self.trump, self.super) == len(cards) - 1
