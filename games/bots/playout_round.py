"""The round a playout plays: fast play of the rest of a round's tricks, for the Hard bot's search.

``PlayoutRound`` is the trick phase of a ``GameState`` in a compact form changed in place, as a
search plays thousands of rounds per move: cards are small ints (their index in ``ALL_CARDS``), and
the terms' suits, powers and 1s are tables built once per terms (``TermsTable``). The cards not yet
played and each hand are also sets of bits, so that what the playout policy (``playout``) counts
(the cards a seat may count on being out, of a suit or above a card) is a mask and a bit count; the
voids shown and who holds the trick so far are kept up to date as cards are played, rather than
recounted for every decision. Its public face speaks cards as strings, as the engine does. Who takes
a trick, its loot and the round's scores follow the engine's rules (``tricks``, ``scoring``); tests
play many random rounds through both and compare them at every card."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache

from games.engine import TRICKS, GameState, Terms, play_order, team_of
from games.engine.cards import ALL_CARDS, COLORS, VALUE, deck
from games.engine.scoring import round_scores
from games.engine.tricks import POWERS, SUITS, TRUMP

from .cardplay import spend

Teams = tuple[tuple[int, ...], tuple[int, ...]]
# By seat to play and cards already in the trick (``_later``).
Later = list[list[tuple[bool, tuple[tuple[int, ...], ...]]]]

CARD = {c: i for i, c in enumerate(ALL_CARDS)}
SUIT_NAMES = (*COLORS, TRUMP)
T = len(COLORS)  # the trump suit's number; the colors are 0 to 3
TRUMP_BIT = 1 << T
# Each card has a bit per copy in the deck (three for a 1), so that a set of cards with its
# copies is an int and counting the cards of a set among those still out is a bit count.
COPIES = [3 if VALUE[c] == 1 else 1 for c in ALL_CARDS]
SLOT = [sum(COPIES[:i]) for i in range(len(ALL_CARDS))]
BITS = [((1 << k) - 1) << at for k, at in zip(COPIES, SLOT, strict=True)]


class TermsTable:
    """The terms' view of every card (by number), for one player count and terms."""

    __slots__ = ("suit", "power", "strength", "one", "spend", "above", "suit_bits", "deck", "all")
    suit: list[int]
    power: list[int]
    strength: list[list[int]]
    one: list[int]
    spend: list[float]
    above: list[int]
    suit_bits: list[int]
    deck: Counter[int]
    all: int

    def __init__(self, players: int, trump: str, super_: str, points: int) -> None:
        suit_of = SUITS[trump, super_]
        powers = POWERS[trump, super_]
        cards = range(len(ALL_CARDS))
        suit = self.suit = [SUIT_NAMES.index(suit_of[c]) for c in ALL_CARDS]
        power = self.power = [powers[c] for c in ALL_CARDS]
        # By led suit: a card's power if it can take the trick (a trump or of the suit led),
        # else -1, as ``tricks.STRENGTHS``.
        self.strength = [
            [p if s in (T, led) else -1 for s, p in zip(suit, power, strict=True)]
            for led in range(len(SUIT_NAMES))
        ]
        self.one = [int(VALUE[c] == 1) for c in ALL_CARDS]
        # ``cardplay.spend`` itself, so that the playouts subtract the very same floats.
        seat = _Terms(points, suit_of, POWERS[trump, super_])
        self.spend = [spend(seat, c) for c in ALL_CARDS]
        # Per card, the cards of its suit at least as strong (``count_from`` its suit and power);
        # per suit, its cards (``count_suit``).
        self.above = [
            _bits(d for d in cards if suit[d] == suit[c] and power[d] >= power[c]) for c in cards
        ]
        self.suit_bits = [_bits(d for d in cards if suit[d] == s) for s in range(T + 1)]
        self.deck = Counter(CARD[c] for c in deck(players))
        self.all = 0  # the whole deck as bits
        for c, k in self.deck.items():
            self.all |= ((1 << k) - 1) << SLOT[c]


def _bits(cards: Iterable[int]) -> int:
    bits = 0
    for c in cards:
        bits |= BITS[c]
    return bits


class _Terms:
    __slots__ = ("points", "suit_of", "power")
    points: int
    suit_of: dict[str, str]
    power: dict[str, int]

    def __init__(self, points: int, suit_of: dict[str, str], power: dict[str, int]) -> None:
        self.points, self.suit_of, self.power = points, suit_of, power


@cache
def _table(players: int, trump: str, super_: str, points: int) -> TermsTable:
    return TermsTable(players, trump, super_, points)


@cache
def _later(team_of: tuple[int, ...]) -> Later:
    """By seat to play and cards already in the trick: whether a later seat is its mate, and
    by team, the later seats of the other team (who may take a trick the team holds)."""
    n = len(team_of)
    seats = []
    for seat in range(n):
        by_count = []
        for count in range(n):
            later = [(seat + k) % n for k in range(1, n - count)]
            mates = any(team_of[s] == team_of[seat] for s in later)
            against = tuple(tuple(s for s in later if team_of[s] != team) for team in (0, 1))
            by_count.append((mates, against))
        seats.append(by_count)
    return seats


class PlayoutRound:
    """The tricks still to play in a round, changed in place by ``play``."""

    __slots__ = (
        "players",
        "turn",
        "leader",
        "tricks_won",
        "loot_won",
        "team_of",
        "teams",
        "bonus",
        "trump",
        "super",
        "points",
        "table",
        "later",
        "_hands",  # per seat, its cards (numbers) in the order of the hand it was given
        "held",  # per seat, its cards as bits
        "unplayed",  # the cards not yet played as bits (in some hand, discarded or unused)
        "_trick",  # the cards played to the trick in play
        "win_at",  # the index in ``_trick`` of the card holding it, and that card's strength
        "win_strength",
        "ones",  # per team, the 1s it played to the trick in play
        "voids",  # per seat, the suits it has shown it no longer holds (bits by suit number)
    )
    players: int
    turn: int
    leader: int
    tricks_won: list[int]
    loot_won: list[int]
    team_of: tuple[int, ...]
    teams: Teams
    bonus: int | None
    trump: str
    super: str
    points: int
    table: TermsTable
    later: Later
    _hands: list[list[int]]
    held: list[int]
    unplayed: int
    _trick: list[int]
    win_at: int
    win_strength: int
    ones: list[int]
    voids: list[int]

    @classmethod
    def from_state(cls, state: GameState) -> PlayoutRound:
        """The trick phase of ``state`` (a state in the trick phase)."""
        if state.phase != TRICKS:
            raise ValueError("a PlayoutRound is the trick phase of a round")
        tricks = [(t.leader, [CARD[c] for c in t.cards]) for t in state.tricks]
        tricks.append((state.leader, [CARD[c] for c in state.trick]))
        played = Counter(c for _, cards in tricks for c in cards)
        assert state.terms is not None and state.teams is not None  # set before the tricks
        r = cls._new(state.hands, state.terms, state.teams, state.bonus, state.leader, played)
        r.tricks_won = list(state.tricks_won)
        r.loot_won = list(state.loot_won)
        suit = r.table.suit
        n = r.players
        for leader, cards in tricks:
            for s, c in zip(play_order(leader, n), cards, strict=False):
                if suit[c] != suit[cards[0]]:
                    r.voids[s] |= 1 << suit[cards[0]]
        for c in tricks[-1][1]:  # who holds the trick in play, and the 1s in it
            r.follow_code(c)
            r.turn = (r.turn + 1) % n
        return r

    @classmethod
    def start(
        cls,
        hands: Sequence[Sequence[str]],
        terms: Terms,
        teams: Teams,
        bonus: int | None,
        leader: int,
    ) -> PlayoutRound:
        """The first trick about to be led, with these hands (after discards and passes)."""
        return cls._new(hands, terms, teams, bonus, leader, Counter())

    @classmethod
    def _new(
        cls,
        hands: Sequence[Sequence[str]],
        terms: Terms,
        teams: Teams,
        bonus: int | None,
        leader: int,
        played: Counter[int],
    ) -> PlayoutRound:
        r = object.__new__(cls)
        n = r.players = len(hands)
        table = r.table = _table(n, terms.trump, terms.super, terms.points)
        r.deal(hands)
        if played:
            r.unplayed = 0
            for c, k in table.deck.items():
                r.unplayed |= ((1 << (k - played[c])) - 1) << SLOT[c]
        else:
            r.unplayed = table.all
        r._trick = []
        r.win_at = r.win_strength = 0
        r.ones = [0, 0]
        r.leader = r.turn = leader
        r.tricks_won = [0] * n
        r.loot_won = [0] * n
        r.team_of = team_of(teams)
        r.later = _later(r.team_of)
        r.teams = teams
        r.bonus = bonus
        r.trump, r.super, r.points = terms.trump, terms.super, terms.points
        r.voids = [0] * n
        return r

    def deal(self, hands: Sequence[Sequence[str]]) -> None:
        """Gives the seats these hands. Each hand takes the lowest free bits of its cards, so
        that the cards not yet played are the lowest bits of each card whatever the deal (and
        the copies in no hand, discarded or unused, the next ones)."""
        self._hands = [[CARD[c] for c in h] for h in hands]
        self.held = []
        taken = 0
        for hand in self._hands:
            bits = 0
            for c in hand:
                bit = BITS[c] & ~taken
                bit &= -bit
                taken |= bit
                bits |= bit
            self.held.append(bits)

    def with_hands(self, hands: Sequence[Sequence[str]]) -> PlayoutRound:
        """A copy of this round with other hands holding the cards not yet played: another deal
        of the same round, as far as it has gone."""
        r = self.copy()
        r.deal(hands)
        return r

    def copy(self) -> PlayoutRound:
        r = object.__new__(PlayoutRound)
        r.players = self.players
        r.turn = self.turn
        r.leader = self.leader
        r.tricks_won = self.tricks_won[:]
        r.loot_won = self.loot_won[:]
        r.team_of = self.team_of
        r.teams = self.teams
        r.bonus = self.bonus
        r.trump = self.trump
        r.super = self.super
        r.points = self.points
        r.table = self.table
        r.later = self.later
        r._hands = [h[:] for h in self._hands]
        r.held = self.held[:]
        r.unplayed = self.unplayed
        r._trick = self._trick[:]
        r.win_at = self.win_at
        r.win_strength = self.win_strength
        r.ones = self.ones[:]
        r.voids = self.voids[:]
        return r

    @property
    def over(self) -> bool:
        return not self._hands[self.turn]

    @property
    def hands(self) -> list[list[str]]:
        return [[ALL_CARDS[c] for c in h] for h in self._hands]

    @property
    def trick(self) -> list[str]:
        return [ALL_CARDS[c] for c in self._trick]

    def legal(self) -> list[str]:
        """The distinct cards the seat to play may play."""
        return [ALL_CARDS[c] for c in playable(self)]

    def play(self, card: str) -> None:
        """The seat to play plays ``card`` (assumed legal)."""
        self.play_code(CARD[card])

    def play_code(self, c: int) -> None:
        seat = self.turn
        self._hands[seat].remove(c)
        held = self.held[seat]
        bit = held & BITS[c]
        bit &= -bit
        self.held[seat] = held ^ bit
        self.unplayed ^= bit
        table = self.table
        trick = self._trick
        # ``follow_code``, inlined: this is the playouts' every card.
        if trick:
            led = table.suit[trick[0]]
            if table.suit[c] != led:
                self.voids[seat] |= 1 << led
            strength = table.strength[led][c]
            if strength >= self.win_strength:
                self.win_at, self.win_strength = len(trick), strength
        else:
            self.win_at, self.win_strength = 0, table.power[c]
        if table.one[c]:
            self.ones[self.team_of[seat]] += 1
        trick.append(c)
        n = self.players
        if len(trick) < n:
            self.turn = (seat + 1) % n
            return
        winner = (self.leader + self.win_at) % n
        self.tricks_won[winner] += 1
        self.loot_won[winner] += self.ones[1 - self.team_of[winner]]
        self._trick = []
        self.ones = [0, 0]
        self.leader = self.turn = winner

    def follow_code(self, c: int) -> None:
        """Adds ``c``, played by the seat to play, to the trick: who holds it, and its 1s.

        As ``tricks.winning_index``: the strongest card holds it, of equal ones the last.
        """
        table = self.table
        trick = self._trick
        if not trick:
            self.win_at, self.win_strength = 0, table.power[c]
        else:
            strength = table.strength[table.suit[trick[0]]][c]
            if strength >= self.win_strength:
                self.win_at, self.win_strength = len(trick), strength
        if table.one[c]:
            self.ones[self.team_of[self.turn]] += 1
        trick.append(c)

    def scores(self) -> list[int]:
        return round_scores(self.teams, self.bonus, self.points, self.tricks_won, self.loot_won)


def playable(r: PlayoutRound) -> list[int]:
    """As ``tricks.legal_cards``: the distinct cards of the suit led if the hand holds any, in
    the hand's order."""
    hand = r._hands[r.turn]
    trick = r._trick
    if trick:
        suit = r.table.suit
        led = suit[trick[0]]
        hand = [c for c in hand if suit[c] == led] or hand
    return list(dict.fromkeys(hand))
