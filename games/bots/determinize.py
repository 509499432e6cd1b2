"""A full game state consistent with what one seat has seen: a guess at the hidden cards.

``determinize(view, rng)`` deals the cards this seat cannot place (``Knowledge.unseen``) to the
places they may be: the other hands (never a suit a seat has shown it lacks; the card this
seat passed stays with its left neighbour until played), the others' discards (under
``except_1``, not a 1) and, with 2 players, the cards out of play. Every other field is copied
from the view, so ``view(determinize(seen, rng), seen["seat"]) == seen``.

The deal is drawn card by card, most constrained first, each card going to a place that may
take it with a chance proportional to the room left there; a dead end (rare) starts over, and
after a few dead ends a slower draw that checks, before each card, that the rest still fits
(Hall's condition over the kinds of cards) finishes the job. This is not exactly uniform over
the consistent deals, but every deal it returns is consistent.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations

from games.engine import (
    BOARD,
    CARDS_CHOSEN,
    DISCARD,
    LINES,
    PASS_LEFT,
    TEAMS,
    TRICKS,
    GameState,
    Token,
    Trick,
    View,
    cards_discarded,
    discardable,
    round_result_from_json,
)
from games.engine.cards import VALUE, sort_cards

from .knowledge import APPLIED, Knowledge

RETRIES = 8

Cards = tuple[str, ...]
# The other hands and discards by seat, and the cards out of play.
Unseen = tuple[dict[int, Cards], dict[int, Cards], Cards]
Takers = dict[str, list[int]]  # per card, the places that may take it
Dealt = list[tuple[int, str]]  # (place, card)


class Place:
    """Somewhere the unseen cards may be: a hand, a discard, or the cards out of play."""

    def __init__(
        self, room: int, refuses: frozenset[str] = frozenset(), no_ones: bool = False
    ) -> None:
        self.room = room
        self.refuses = refuses  # suits it may not take (a hand's known voids)
        self.no_ones = no_ones  # an except_1 discard

    def takes(self, card: str, suit_of: dict[str, str]) -> bool:
        return suit_of[card] not in self.refuses and not (self.no_ones and VALUE[card] == 1)


def places(k: Knowledge) -> tuple[dict[int, Place], dict[int, Place], Place | None]:
    """The other hands, the other seats' discards and the cards out of play, with their room."""
    n = k.players
    others = [s for s in range(n) if s != k.seat]
    hands = {
        s: Place(k.hand_sizes[s] - sum(k.pinned[s].values()), frozenset(k.voids[s])) for s in others
    }
    discards: dict[int, Place] = {}
    rule = None if k.terms is None else k.terms.discard
    if k.phase in APPLIED and rule is not None and cards_discarded(rule):
        discards = {s: Place(cards_discarded(rule), no_ones=rule == "except_1") for s in others}
    out = Place(k.seen["out_of_play"]) if k.seen["out_of_play"] else None
    return hands, discards, out


def deal_unseen(k: Knowledge, rng: random.Random) -> Unseen:
    """Hands for the other seats (pinned cards included), their discards, the cards out of play."""
    return Dealer(k).deal_unseen(rng)


class Dealer:
    """The deals of the unseen cards for one view: what every deal shares (the cards, the places
    and which of them may take each card) is worked out once, for a search that draws many."""

    def __init__(self, k: Knowledge) -> None:
        hands, discards, out = places(k)
        spots = [*hands.values(), *discards.values(), *([out] if out else [])]
        self.cards = cards = sorted(k.unseen.elements())
        if sum(p.room for p in spots) != len(cards):
            raise ValueError("the view does not add up: unseen cards and room differ")
        suit_of = k.suit_of
        self.takers = {
            c: [i for i, p in enumerate(spots) if p.takes(c, suit_of)] for c in set(cards)
        }
        self.choices = {c: len(t) for c, t in self.takers.items()}
        self.refuses = [p.refuses for p in spots]
        self.suit_of = suit_of
        self.rooms = [p.room for p in spots]
        self.hands = list(hands)
        self.discards = list(discards)
        self.out = out is not None
        self.pinned = [list(k.pinned[s].elements()) for s in hands]

    def deal_unseen(self, rng: random.Random) -> Unseen:
        """As ``deal_unseen``, drawn with ``rng``."""
        cards, takers, rooms = self.cards, self.takers, self.rooms
        dealt = None
        for _ in range(RETRIES):
            dealt = _quick_deal(cards, takers, rooms, rng, self.choices.__getitem__)
            if dealt is not None:
                break
        if dealt is None:
            dealt = _careful_deal(cards, takers, rooms, rng)
            if dealt is None:  # only an except_1 hand of nothing but 1s can get here
                suit_of = self.suit_of
                takers = {
                    c: [i for i, refuses in enumerate(self.refuses) if suit_of[c] not in refuses]
                    for c in takers
                }
                dealt = _careful_deal(cards, takers, rooms, rng)
        assert dealt is not None  # without the except_1 rule, some deal fits
        spots: list[list[str]] = [[] for _ in rooms]
        for i, card in dealt:
            spots[i].append(card)
        h = len(self.hands)
        for i, pinned in enumerate(self.pinned):
            spots[i].extend(pinned)
        d = h + len(self.discards)
        return (
            {s: sort_cards(spots[i]) for i, s in enumerate(self.hands)},
            {s: sort_cards(spots[h + i]) for i, s in enumerate(self.discards)},
            sort_cards(spots[d]) if self.out else (),
        )


def _pick(options: list[int], room: list[int], rng: random.Random) -> int:
    total = sum(room[i] for i in options)
    x = rng.random() * total
    for i in options:
        x -= room[i]
        if x < 0:
            return i
    return options[-1]


def _quick_deal(
    cards: list[str],
    takers: Takers,
    rooms: list[int],
    rng: random.Random,
    choices: Callable[[str], int],
) -> Dealt | None:
    """``choices``: a card's number of takers."""
    order = list(cards)
    rng.shuffle(order)
    order.sort(key=choices)  # most constrained first (stable: random ties)
    room = list(rooms)
    dealt: Dealt = []
    for c in order:
        options = [i for i in takers[c] if room[i]]
        if not options:
            return None
        i = _pick(options, room, rng)
        room[i] -= 1
        dealt.append((i, c))
    return dealt


def _fits(need: Counter[frozenset[int]], room: list[int]) -> bool:
    """Hall's condition: every set of kinds of cards has room enough among its takers."""
    kinds = [kind for kind, count in need.items() if count]
    for size in range(1, len(kinds) + 1):
        for group in combinations(kinds, size):
            spots: set[int] = set().union(*group)
            if sum(need[kind] for kind in group) > sum(room[i] for i in spots):
                return False
    return True


def _careful_deal(
    cards: list[str], takers: Takers, rooms: list[int], rng: random.Random
) -> Dealt | None:
    kind_of = {c: frozenset(t) for c, t in takers.items()}
    need = Counter(kind_of[c] for c in cards)
    room = list(rooms)
    if not _fits(need, room):
        return None
    order = list(cards)
    rng.shuffle(order)
    dealt: Dealt = []
    for c in order:
        kind = kind_of[c]
        options = [i for i in takers[c] if room[i]]
        need[kind] -= 1
        while True:
            i = _pick(options, room, rng)
            room[i] -= 1
            if _fits(need, room):
                break
            room[i] += 1
            options.remove(i)
        dealt.append((i, c))
    return dealt


def determinize(
    seen: View,
    rng: random.Random,
    knowledge: Knowledge | None = None,
    dealer: Dealer | None = None,
) -> GameState:
    """A game state that this seat could not tell from the real one (see the module doc).

    ``knowledge`` and ``dealer``, if given, are the view's (``Knowledge(seen)``, ``Dealer``),
    kept by a search that draws many deals."""
    k = knowledge or Knowledge(seen)
    n = k.players
    seat = k.seat
    others_hands, discards, out = (dealer or Dealer(k)).deal_unseen(rng)
    hands: list[Cards] = [()] * n
    hands[seat] = tuple(seen["hand"])
    for s, hand in others_hands.items():
        hands[s] = hand

    state = object.__new__(GameState)
    state.players = n
    state.seed = rng.randrange(2**32)  # only deals the rounds after this one
    state.target = seen["target"]
    state.results = tuple(round_result_from_json(r) for r in seen["results"])
    state.first_dealer = state.results[0].dealer if state.results else seen["dealer"]
    state.dealer = seen["dealer"]
    state.phase = phase = seen["phase"]
    state.hands = tuple(hands)
    state.out_of_play = out
    state.tokens = tuple(Token.from_json(t) for t in seen["board"]["tokens"])
    state.open = {line: tuple(seen["board"]["open"][line]) for line in LINES}
    state.terms = k.terms
    state.teams = k.teams
    state.bonus = seen["bonus"]
    state.choices = _choices(k, seen, state.hands, discards, rng)
    state.trick = tuple(seen["trick"]["cards"])
    state.leader = seen["trick"]["leader"]
    state.tricks = tuple(
        Trick(t["leader"], tuple(t["cards"]), t["winner"], tuple(t["loot"])) for t in seen["tricks"]
    )
    state.tricks_won = tuple(seen["tricks_won"])
    state.loot_won = tuple(seen["loot_won"])
    if phase in (BOARD, TEAMS, TRICKS):
        state.turn = seen["to_act"][0]
    else:  # discards (and the game's end): whose turn it is means nothing until the tricks
        state.turn = k.terms.first if k.terms else seen["dealer"]
    return state


def _choices(
    k: Knowledge,
    seen: View,
    hands: Sequence[Cards],
    discards: dict[int, Cards],
    rng: random.Random,
) -> tuple[Cards | None, ...]:
    """Every seat's discard or pass: this seat's own, the others' guessed."""
    n = k.players
    chosen = seen["chosen"]
    choices: list[tuple[str, ...] | None] = [None] * n
    rule = None if k.terms is None else k.terms.discard
    for s in range(n):
        if not chosen[s]:
            continue
        if s == k.seat:
            own = seen["choice"]
            assert own is not None  # chosen: the view shows this seat its own choice
            choices[s] = tuple(own)
        elif k.phase == DISCARD:  # chosen but not applied: a guess from the guessed hand
            assert rule is not None
            choices[s] = _guess_choice(rule, hands[s], rng)
        elif rule == PASS_LEFT:
            if (s + 1) % n == k.seat:
                received = seen["received"]
                assert received is not None  # passes applied: the view shows the card
                choices[s] = (received,)
            else:  # a card the receiver held when the tricks began
                taker = (s + 1) % n
                held = sort_cards([*hands[taker], *k.played_by[taker].elements()])
                choices[s] = (rng.choice(held),)
        else:
            choices[s] = discards[s]
    return tuple(choices)


def _guess_choice(rule: str, hand: Sequence[str], rng: random.Random) -> tuple[str, ...]:
    cards = discardable(rule, hand)
    if CARDS_CHOSEN[rule] == 2:
        return sort_cards(rng.sample(cards, 2))
    return (rng.choice(cards),)
