"""Fast play of the rest of a round's tricks, for the Hard bot's search.

``Round`` is the trick phase of a ``GameState`` in mutable lists, so that a playout does not
build a new state per card. Who takes a trick, its loot and the round's scores come from the
engine's own functions (``trick_winner``, ``team_of``, ``loot``, ``round_scores``);
a test plays random rounds through both and compares them.

The playout policy ``medium_card`` plays as the Medium bot does (``cardplay``), counting the
cards not yet played and the voids shown, blind to the other hands of the guessed deal as real
players are. (A policy of simpler habits, three times as fast, made the search no better than
Medium; playouts that play like the opponents do made it better.)
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from games.engine import TRICKS, GameState, legal_cards, play_order, team_of, trick_winner
from games.engine.cards import deck
from games.engine.scoring import round_scores
from games.engine.tricks import POWERS, SUITS, loot

from .cardplay import choose_card


class Round:
    """The tricks still to play in a round, changed in place by ``play``."""

    __slots__ = (
        "players",
        "hands",
        "trick",
        "leader",
        "turn",
        "tricks_won",
        "loot_won",
        "team_of",
        "teams",
        "bonus",
        "trump",
        "super",
        "points",
        "suit_of",
        "power",
        "unplayed",
        "suit_left",
        "by_suit",
        "voids",
    )

    @classmethod
    def from_state(cls, state: GameState) -> Round:
        """The trick phase of ``state`` (a state in the trick phase)."""
        if state.phase != TRICKS:
            raise ValueError("a Round is the trick phase of a round")
        r = cls.start(state.hands, state.terms, state.teams, state.bonus, state.leader)
        r.trick = list(state.trick)
        r.turn = state.turn
        r.tricks_won = list(state.tricks_won)
        r.loot_won = list(state.loot_won)
        suit_of = r.suit_of
        n = r.players
        for trick in (*state.tricks, (state.leader, state.trick)):
            leader, cards = trick[0], trick[1]
            r.unplayed.subtract(cards)
            for s, c in zip(play_order(leader, n), cards, strict=False):
                r.suit_left[suit_of[c]] -= 1
                if suit_of[c] != suit_of[cards[0]]:
                    r.voids[s].add(suit_of[cards[0]])
        return r

    @classmethod
    def start(cls, hands, terms, teams, bonus: int | None, leader: int) -> Round:
        """The first trick about to be led, with these hands (after discards and passes)."""
        r = object.__new__(cls)
        n = r.players = len(hands)
        r.hands = [list(h) for h in hands]
        r.trick = []
        r.leader = r.turn = leader
        r.tricks_won = [0] * n
        r.loot_won = [0] * n
        r.team_of = team_of(teams)
        r.teams = teams
        r.bonus = bonus
        r.trump, r.super, r.points = terms.trump, terms.super, terms.points
        r.suit_of = SUITS[terms.trump, terms.super]
        r.power = POWERS[terms.trump, terms.super]
        # Cards not yet played this round (in some hand, discarded or out of play): what a
        # player who counts cards knows, with its own hand set apart.
        r.unplayed = Counter(deck(n))
        r.suit_left = Counter(r.suit_of[c] for c in deck(n))
        r.by_suit = _by_suit(n, terms.trump, terms.super)
        r.voids = [set() for _ in range(n)]
        return r

    def copy(self) -> Round:
        r = object.__new__(Round)
        for name in self.__slots__:
            setattr(r, name, getattr(self, name))
        r.hands = [list(h) for h in self.hands]
        r.trick = list(self.trick)
        r.tricks_won = list(self.tricks_won)
        r.loot_won = list(self.loot_won)
        r.unplayed = self.unplayed.copy()
        r.suit_left = self.suit_left.copy()
        r.voids = [set(v) for v in self.voids]
        return r

    @property
    def over(self) -> bool:
        return not self.hands[self.turn]

    def legal(self) -> list[str]:
        """The distinct cards the seat to play may play."""
        return legal_cards(self.hands[self.turn], self.trick, self.trump, self.super)

    def play(self, card: str) -> None:
        """The seat to play plays ``card`` (assumed legal)."""
        n = self.players
        self.hands[self.turn].remove(card)
        self.unplayed[card] -= 1
        self.suit_left[self.suit_of[card]] -= 1
        trick = self.trick
        if trick and self.suit_of[card] != self.suit_of[trick[0]]:
            self.voids[self.turn].add(self.suit_of[trick[0]])
        trick.append(card)
        if len(trick) < n:
            self.turn = (self.turn + 1) % n
            return
        leader = self.leader
        winner = trick_winner(leader, trick, n, self.trump, self.super)
        self.tricks_won[winner] += 1
        self.loot_won[winner] += len(loot(trick, play_order(leader, n), winner, self.team_of))
        self.trick = []
        self.leader = self.turn = winner

    def scores(self) -> list[int]:
        return round_scores(self.teams, self.bonus, self.points, self.tricks_won, self.loot_won)


@cache
def _by_suit(players: int, trump: str, super_: str) -> dict[str, tuple[str, ...]]:
    """The deck's distinct cards by suit during play, strongest first."""
    suit_of = SUITS[trump, super_]
    power = POWERS[trump, super_]
    by_suit: dict[str, list[str]] = {}
    for c in dict.fromkeys(deck(players)):
        by_suit.setdefault(suit_of[c], []).append(c)
    return {
        suit: tuple(sorted(cs, key=power.__getitem__, reverse=True)) for suit, cs in by_suit.items()
    }


class SeatAtRound:
    """The table as the seat to play sees it in a ``Round``, for ``cardplay``: the cards it may
    count on being out are those not yet played and not in its own hand."""

    __slots__ = ("r", "seat", "hand", "players", "trick", "leader", "team_of", "points")
    __slots__ += ("trump", "super", "suit_of", "power", "voids", "_suits", "_from")

    def __init__(self, r: Round) -> None:
        self.r = r
        self.seat = r.turn
        self.hand = r.hands[r.turn]
        self.players = r.players
        self.trick = r.trick
        self.leader = r.leader
        self.team_of = r.team_of
        self.points = r.points
        self.trump = r.trump
        self.super = r.super
        self.suit_of = r.suit_of
        self.power = r.power
        self.voids = r.voids
        self._suits = None
        self._from: dict[tuple[str, int], int] = {}

    def count_from(self, suit: str, power: int) -> int:
        known = self._from.get((suit, power))
        if known is not None:
            return known
        r = self.r
        powers = r.power
        unplayed = r.unplayed
        hand = self.hand
        total = 0
        for d in r.by_suit[suit]:
            if powers[d] < power:
                break
            if unplayed[d]:
                total += unplayed[d] - hand.count(d)
        self._from[suit, power] = total
        return total

    def count_suit(self, suit: str) -> int:
        if self._suits is None:
            suit_of = self.suit_of
            self._suits = Counter(suit_of[c] for c in self.hand)
        return self.r.suit_left[suit] - self._suits[suit]


def medium_card(r: Round) -> str:
    """The Medium bot's card for the seat to play (``cardplay``), as a playout policy."""
    cards = r.legal()
    if len(cards) == 1:
        return cards[0]
    return choose_card(SeatAtRound(r), cards)


def play_out(r: Round, policy=None) -> list[int]:
    """Play the round to its end with ``policy`` (``medium_card`` by default); its scores."""
    policy = policy or medium_card
    while not r.over:
        r.play(policy(r))
    return r.scores()
