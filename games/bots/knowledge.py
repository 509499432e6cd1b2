"""What a seat knows about the round in play, read from its view and nothing else.

``Knowledge(view)`` gathers what every bot needs: the terms, the teams, the cards played this
round and by whom, the suits each seat has shown it no longer holds (it did not follow), the
cards whose place is unknown, and the cards known to be in another seat's hand (the card this
seat passed to its left, until that seat plays it). The rules come from ``games.engine.tricks``.
"""

from __future__ import annotations

from collections import Counter

from games.engine import DISCARD, OVER, TRICKS, Terms
from games.engine.cards import COLOR, SETUPS, deck
from games.engine.tricks import POWERS, TRUMP, suits, winning_index

APPLIED = (TRICKS, OVER)  # phases in which the discards and passes have been applied


class Knowledge:
    """What ``view["seat"]`` knows now. Plain data; build a new one for every view."""

    def __init__(self, seen: dict) -> None:
        self.seen = seen
        n = self.players = seen["players"]
        self.seat = seat = seen["seat"]
        self.phase = seen["phase"]
        self.hand: list[str] = list(seen["hand"])
        self.hand_sizes: list[int] = list(seen["hand_sizes"])
        self.tricks_per_round = SETUPS[n].hand
        terms = self.terms = None if seen["terms"] is None else Terms.from_json(seen["terms"])
        if terms is None:
            self.suit_of: dict[str, str] = COLOR
            self.power: dict[str, int] | None = None
        else:
            self.suit_of = suits(terms.trump, terms.super)
            self.power = POWERS[terms.trump, terms.super]
        teams = seen["teams"]
        self.teams = None if teams is None else (tuple(teams[0]), tuple(teams[1]))
        self.team_of: list[int] | None = None
        if teams is not None:
            self.team_of = [0 if s in teams[0] else 1 for s in range(n)]
        self.bonus = seen["bonus"]
        self.trick: list[str] = list(seen["trick"]["cards"])
        self.leader: int = seen["trick"]["leader"]

        # Cards played this round, by seat, and the suits each seat has shown it is out of.
        self.played_by = [Counter() for _ in range(n)]
        self.voids: list[set[str]] = [set() for _ in range(n)]
        for trick in (*seen["tricks"], seen["trick"]):
            cards = trick["cards"]
            if not cards:
                continue
            led = self.suit_of[cards[0]]
            for i, c in enumerate(cards):
                s = (trick["leader"] + i) % n
                self.played_by[s][c] += 1
                if self.suit_of[c] != led:
                    self.voids[s].add(led)
        self.played: Counter = Counter()
        for by_seat in self.played_by:
            self.played.update(by_seat)

        # My own discards (out of play) and the card I passed (now the left seat's).
        rule = None if terms is None else terms.discard
        choice = seen["choice"] or []
        applied = self.phase in APPLIED
        self.discarded = Counter(choice) if applied and rule not in ("none", "pass_left") else {}
        self.pinned: list[Counter] = [Counter() for _ in range(n)]
        if applied and rule == "pass_left" and choice:
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

    # --- the phase and the seats ------------------------------------------------------------

    @property
    def in_discard(self) -> bool:
        return self.phase == DISCARD

    def mates(self, seat: int) -> bool:
        """Whether ``seat`` is on this seat's team (itself included)."""
        return self.team_of is not None and self.team_of[seat] == self.team_of[self.seat]

    def seats_after_me(self) -> list[int]:
        """Seats still to play to the current trick after this seat."""
        n = self.players
        return [(self.seat + k) % n for k in range(1, n - len(self.trick))]

    # --- the current trick --------------------------------------------------------------------

    def winner_so_far(self) -> int | None:
        """The seat that holds the current trick, or None before the lead."""
        if not self.trick:
            return None
        terms = self.terms
        return (self.leader + winning_index(self.trick, terms.trump, terms.super)) % self.players

    def takes_lead(self, card: str) -> bool:
        """Whether ``card``, played now by this seat, would hold the trick so far."""
        terms = self.terms
        cards = [*self.trick, card]
        return winning_index(cards, terms.trump, terms.super) == len(cards) - 1

    def led_suit(self, card: str | None = None) -> str:
        return self.suit_of[self.trick[0] if self.trick else card]

    def may_hold(self, seat: int, suit: str) -> bool:
        """Whether ``seat`` may still hold a card of ``suit``, as far as this seat knows."""
        if suit in self.voids[seat]:
            return False
        if any(self.suit_of[c] == suit for c in self.pinned[seat]):
            return True
        return any(self.suit_of[c] == suit for c in self.outstanding)

    def chance_holds(self, cards: list[str]) -> float:
        """A rough chance that the winner of ``cards`` (the trick once this seat has played)
        keeps it: that no later seat of the other team beats its card.

        Counts the outstanding cards that would beat it; a later seat is a threat if it may
        still follow with such a card, or may trump because it has shown a void in the led suit
        (or the led suit is nearly gone). 1.0 when nobody can beat it as far as this seat knows.
        """
        n = self.players
        terms = self.terms
        later = [(self.seat + k) % n for k in range(1, n - len(cards) + 1)]
        if not later:
            return 1.0
        at = winning_index(cards, terms.trump, terms.super)
        winner = (self.seat - (len(cards) - 1 - at)) % n
        suit_of = self.suit_of
        led = suit_of[cards[0]]
        following, ruffing = 0, 0
        for c in self.outstanding:
            suit = suit_of[c]
            if (suit == TRUMP or suit == led) and winning_index(
                [*cards, c], terms.trump, terms.super
            ) == len(cards):
                if suit == led:
                    following += 1
                else:
                    ruffing += 1
        if not following and not ruffing:
            return 1.0
        led_left = sum(k for c, k in self.outstanding.items() if suit_of[c] == led)
        team_of = self.team_of
        chance = 1.0
        for s in later:
            if team_of is not None and team_of[s] == team_of[winner]:
                continue
            if following and led not in self.voids[s]:
                chance *= 0.5 if following > 1 else 0.7
            if ruffing and TRUMP not in self.voids[s]:
                if led in self.voids[s]:
                    chance *= 0.3
                elif led_left < 2 * len(later):
                    chance *= 0.7
        return chance

    def winner_of(self, cards: list[str]) -> int:
        """The seat whose card takes ``cards`` (the trick once this seat has played)."""
        terms = self.terms
        at = winning_index(cards, terms.trump, terms.super)
        return (self.seat - (len(cards) - 1 - at)) % self.players

    def _others(self) -> list[int]:
        n = self.players
        return [(self.seat + k) % n for k in range(1, n)]
