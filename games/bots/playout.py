"""Fast play of the rest of a round's tricks, for the Hard bot's search.

``Round`` is the trick phase of a ``GameState`` in mutable lists, so that a playout does not
build a new state per card. Who takes a trick, its loot and the round's scores come from the
engine's own functions (``tricks.winning_index``, ``tricks.loot``, ``scoring.round_scores``);
a test plays random rounds through both and compares them.

``quick_card`` is the playout policy: simple habits that look only at the acting seat's own
hand and the trick (never at the other hands of the guessed deal), so the playouts stay as
blind as real players.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from games.engine import TRICKS, GameState
from games.engine.cards import VALUE, deck
from games.engine.scoring import round_scores
from games.engine.tricks import POWERS, SUITS, TRUMP, loot, winning_index


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
        "by_suit",
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
        for trick in state.tricks:
            r.unplayed.subtract(trick.cards)
        r.unplayed.subtract(state.trick)
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
        r.team_of = _team_of(teams)
        r.teams = teams
        r.bonus = bonus
        r.trump, r.super, r.points = terms.trump, terms.super, terms.points
        r.suit_of = SUITS[terms.trump, terms.super]
        r.power = POWERS[terms.trump, terms.super]
        # Cards not yet played this round (in some hand, discarded or out of play): what a
        # player who counts cards knows, with its own hand set apart.
        r.unplayed = Counter(deck(n))
        r.by_suit = _by_suit(n, terms.trump, terms.super)
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
        return r

    @property
    def over(self) -> bool:
        return not self.hands[self.turn]

    def legal(self) -> list[str]:
        """The distinct cards the seat to play may play."""
        hand = self.hands[self.turn]
        if self.trick:
            suit_of = self.suit_of
            led = suit_of[self.trick[0]]
            following = [c for c in hand if suit_of[c] == led]
            if following:
                return list(dict.fromkeys(following))
        return list(dict.fromkeys(hand))

    def play(self, card: str) -> None:
        """The seat to play plays ``card`` (assumed legal)."""
        n = self.players
        self.hands[self.turn].remove(card)
        self.unplayed[card] -= 1
        trick = self.trick
        trick.append(card)
        if len(trick) < n:
            self.turn = (self.turn + 1) % n
            return
        leader = self.leader
        winner = (leader + winning_index(trick, self.trump, self.super)) % n
        seats = [(leader + i) % n for i in range(n)]
        self.tricks_won[winner] += 1
        self.loot_won[winner] += len(loot(trick, seats, winner, self.team_of))
        self.trick = []
        self.leader = self.turn = winner

    def scores(self) -> list[int]:
        return round_scores(self.teams, self.bonus, self.points, self.tricks_won, self.loot_won)


@cache
def _team_of(teams: tuple[tuple[int, ...], tuple[int, ...]]) -> tuple[int, ...]:
    team_of = [0] * (len(teams[0]) + len(teams[1]))
    for s in teams[1]:
        team_of[s] = 1
    return tuple(team_of)


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


def _beaten(r: Round, hand: list[str], card: str, suit: str, best: int) -> bool:
    """Whether a card of ``suit`` stronger than ``best`` is still out, outside ``hand``.

    ``best`` is the power to beat (equal supertrumps beat: the last one wins).
    """
    power = r.power
    unplayed = r.unplayed
    for d in r.by_suit[suit]:
        p = power[d]
        if p < best or (p == best and p != 100):
            return False
        if unplayed[d] > hand.count(d) + (d == card):
            return True
    return False


def quick_card(r: Round) -> str:
    """The playout policy's card for the seat to play (see the module doc).

    With positive points: lead a card no outstanding card of its suit beats (a side suit
    first), else a low card; win a trick as cheaply as possible, let a partner's safe trick be
    (throwing 1s into it), keep 1s away from the other team. With negative points: lead low,
    duck with the highest card that loses, give 1s to the other team's tricks.
    """
    hand = r.hands[r.turn]
    trick = r.trick
    suit_of = r.suit_of
    power = r.power.__getitem__
    if trick:
        led = suit_of[trick[0]]
        cards = [c for c in hand if suit_of[c] == led] or hand
    else:
        cards = hand
    if len(cards) == 1:
        return cards[0]
    positive = r.points > 0
    if not trick:
        if not positive:
            return min(cards, key=power)
        masters = [c for c in cards if not _beaten(r, hand, c, suit_of[c], power(c))]
        side = [c for c in masters if suit_of[c] != TRUMP and VALUE[c] != 1]
        if side:
            return min(side, key=power)
        if masters and len(masters) * 2 >= len(hand):
            return max(masters, key=power)
        plain = [c for c in cards if VALUE[c] != 1 and suit_of[c] != TRUMP]
        if plain:
            return min(plain, key=power)
        plain = [c for c in cards if VALUE[c] != 1]
        return min(plain or cards, key=power)
    n = r.players
    at = winning_index(trick, r.trump, r.super)
    best = r.power[trick[at]]
    team_of = r.team_of
    ours = team_of[(r.leader + at) % n] == team_of[r.turn]
    last = len(trick) == n - 1
    beating = [c for c in cards if (suit_of[c] == TRUMP or suit_of[c] == led) and power(c) >= best]
    if positive:
        if ours:
            winning = trick[at]
            if last or not _beaten(r, hand, winning, suit_of[winning], best):
                ones = [c for c in cards if VALUE[c] == 1 and suit_of[c] != TRUMP]
                return ones[0] if ones else min(cards, key=power)
            safe = [c for c in beating if not _beaten(r, hand, c, suit_of[c], power(c))]
            if safe:
                return min(safe, key=power)
        elif beating:
            if not last:
                safe = [c for c in beating if not _beaten(r, hand, c, suit_of[c], power(c))]
                if safe:
                    return min(safe, key=power)
            return min(beating, key=power)
        plain = [c for c in cards if VALUE[c] != 1]
        return min(plain or cards, key=power)
    losing = [c for c in cards if c not in beating]
    if losing:
        if not ours:
            ones = [c for c in losing if VALUE[c] == 1]
            if ones:
                return ones[0]
        return max(losing, key=power)
    return max(cards, key=power) if last else min(cards, key=power)


def play_out(r: Round) -> list[int]:
    """Play the round to its end with ``quick_card``; the round's scores."""
    while not r.over:
        r.play(quick_card(r))
    return r.scores()
