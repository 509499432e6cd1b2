"""The state of a game of Nyet!, and the moves that change it.

A ``GameState`` is never changed in place: ``apply`` returns a new one and leaves the old one as
it was, also when it refuses the move. Chance comes only from the game's seed: the deal of round
``n`` is a shuffle by ``random.Random`` seeded with the seed and ``n``, so the same seed and moves
always give the same game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from itertools import combinations
from typing import Any, NamedTuple, cast

from .board import (
    BOXES,
    CARDS_CHOSEN,
    LINES,
    Terms,
    Token,
    coverable,
    discardable,
    first_open,
    hands_after,
    terms_of,
)
from .cards import PLAYER_COUNTS, SETUPS, VALUE, deck, sort_cards
from .errors import IllegalMove, gettext_noop
from .moves import ChooseTeams, Discard, Move, PassCard, PlaceToken, PlayCard
from .scoring import Standings, round_scores, standings
from .tricks import ONES, SUITS, legal_cards, loot, play_order, team_of, trick_winner

BOARD = "board"
TEAMS = "teams"
DISCARD = "discard"  # discard or pass, as line 2 says
TRICKS = "tricks"
OVER = "over"
PHASES = (BOARD, TEAMS, DISCARD, TRICKS, OVER)


class Trick(NamedTuple):
    """A finished trick: cards in play order, starting with the leader's."""

    leader: int
    cards: tuple[str, ...]
    winner: int
    loot: tuple[str, ...]

    def seats(self, players: int) -> tuple[int, ...]:
        """Who played each card, in play order (clockwise from the leader)."""
        return play_order(self.leader, players)[: len(self.cards)]


class RoundResult(NamedTuple):
    """What a finished round leaves on the scorepad."""

    dealer: int
    terms: Terms
    teams: tuple[tuple[int, ...], tuple[int, ...]]
    bonus: int | None
    tricks: tuple[int, ...]  # tricks won per seat
    loot: tuple[int, ...]  # loot cards captured per seat
    scores: tuple[int, ...]


class GameState:
    """Everything about a game, secrets included. Treat it as immutable; show a seat ``view()``.

    Game: ``players``, ``seed``, ``target`` (point target, or None for the fixed round count),
    ``first_dealer``, ``results`` (one ``RoundResult`` per finished round).
    The round in play: ``dealer``, ``phase``, ``turn`` (who acts in the board, teams and tricks
    phases), ``hands``, ``out_of_play`` (2 players only), ``tokens``, ``open`` (open boxes per
    line), ``terms``, ``teams``, ``bonus``, ``choices`` (each seat's discard or pass, None until
    made; applied when all are made), ``trick`` (cards played to the current trick, led by
    ``leader``), ``tricks`` (finished ones), ``tricks_won`` and ``loot_won`` per seat.
    """

    players: int
    seed: int
    target: int | None
    first_dealer: int
    results: tuple[RoundResult, ...]
    dealer: int
    phase: str
    turn: int
    hands: tuple[tuple[str, ...], ...]
    out_of_play: tuple[str, ...]
    tokens: tuple[Token, ...]
    open: dict[str, tuple[str, ...]]
    terms: Terms | None
    teams: tuple[tuple[int, ...], tuple[int, ...]] | None
    bonus: int | None
    choices: tuple[tuple[str, ...] | None, ...]
    trick: tuple[str, ...]
    leader: int
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    loot_won: tuple[int, ...]

    def _evolve(self) -> GameState:
        new = object.__new__(GameState)
        new.__dict__ = self.__dict__.copy()
        return new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<GameState {self.players}p round {self.round} {self.phase}"
            f" tokens={len(self.tokens)} tricks={len(self.tricks)}>"
        )

    @property
    def round(self) -> int:
        """Number of the round in play (1-based); after the game, the number of rounds played."""
        return len(self.results) + (self.phase != OVER)

    @property
    def team_of(self) -> tuple[int, ...]:
        """0 for each seat of the first player's team, 1 for the others (once teams are set)."""
        return team_of(self.teams)


# --- starting ---------------------------------------------------------------------------------


def new_game(players: int, seed: int, target: int | None = None) -> GameState:
    """A new game with round 1 dealt. ``target`` plays to a point target instead of fixed rounds."""
    if players not in PLAYER_COUNTS:
        raise ValueError(f"Nyet! is for 2 to 5 players, not {players}")
    if target is not None and target <= 0:
        raise ValueError("the point target must be positive")
    state = object.__new__(GameState)
    state.players = players
    state.seed = seed
    state.target = target
    state.first_dealer = random.Random(f"nyet/{seed}/dealer").randrange(players)
    state.results = ()
    return _deal(state, state.first_dealer, _shuffled_hands(players, seed, 1))


def with_deal(state: GameState, dealer: int, hands: Sequence[Iterable[str]]) -> GameState:
    """The same game with the round in play dealt anew: this dealer, these hands.

    For a known deal (the rules vectors, tests); the next rounds are dealt from the seed again.
    """
    cards = deck(state.players)
    counted = sort_cards(c for hand in hands for c in hand)
    if len(hands) != state.players or any(c not in VALUE for c in counted):
        raise ValueError("one hand of real cards per seat")
    rest = list(cards)
    for c in counted:
        rest.remove(c)  # raises ValueError for a card dealt more often than the deck holds
    sorted_hands = tuple(sort_cards(h) for h in hands)
    if any(len(h) != SETUPS[state.players].hand for h in sorted_hands):
        raise ValueError("every hand must hold the setup's number of cards")
    return _deal(state._evolve(), dealer, (sorted_hands, sort_cards(rest)))


# A deal: the hands, and the cards out of play.
Dealt = tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]


def _shuffled_hands(players: int, seed: int, round_number: int) -> Dealt:
    cards = list(deck(players))
    random.Random(f"nyet/{seed}/round/{round_number}").shuffle(cards)
    size = SETUPS[players].hand
    hands = tuple(sort_cards(cards[s * size : (s + 1) * size]) for s in range(players))
    return hands, sort_cards(cards[players * size :])


def _deal(state: GameState, dealer: int, dealt: Dealt) -> GameState:
    """Start a round on ``state`` (a fresh copy, changed in place here)."""
    n = state.players
    state.dealer = dealer
    state.hands, state.out_of_play = dealt
    state.phase = BOARD
    state.turn = dealer
    state.tokens = ()
    state.open = first_open(n)
    state.terms = None
    state.teams = None
    state.bonus = None
    state.choices = (None,) * n
    state.trick = ()
    state.leader = dealer
    state.tricks = ()
    state.tricks_won = (0,) * n
    state.loot_won = (0,) * n
    return state


# --- who may act, and how ---------------------------------------------------------------------


def to_act(state: GameState) -> tuple[int, ...]:
    """The seats that may move now (several while discards and passes are chosen)."""
    if state.phase == DISCARD:
        return tuple(s for s, choice in enumerate(state.choices) if choice is None)
    if state.phase == OVER:
        return ()
    return (state.turn,)


# Moves are made once and shared: listing legal moves is on every bot's hot path.
_TOKEN_MOVES = [
    {line: {box: PlaceToken(seat, line, box) for box in BOXES[line]} for line in LINES}
    for seat in range(5)
]
_PLAY_MOVES = [{c: PlayCard(seat, c) for c in VALUE} for seat in range(5)]


def legal_moves(state: GameState, seat: int) -> list[Move]:
    """Every move ``seat`` may make now (none when it is not that seat's turn)."""
    phase = state.phase
    if phase == TRICKS:
        if seat != state.turn:
            return []
        terms = state.terms
        assert terms is not None  # set when the board is done
        plays = _PLAY_MOVES[seat]
        return [
            plays[c] for c in legal_cards(state.hands[seat], state.trick, terms.trump, terms.super)
        ]
    if phase == BOARD:
        if seat != state.turn:
            return []
        tokens = _TOKEN_MOVES[seat]
        return [tokens[line][box] for line, box in coverable(state.open)]
    if phase == DISCARD:
        if not 0 <= seat < state.players or state.choices[seat] is not None:
            return []
        assert state.terms is not None
        return _discard_choices(state.terms.discard, seat, state.hands[seat])
    if phase == TEAMS:
        if seat != state.turn:
            return []
        return list(_team_choices(state.players, seat))
    return []


def _discard_choices(rule: str, seat: int, hand: tuple[str, ...]) -> list[Move]:
    distinct = list(dict.fromkeys(hand))
    if rule == "pass_left":
        return [PassCard(seat, c) for c in distinct]
    if rule == "2":
        return [Discard(seat, pair) for pair in dict.fromkeys(combinations(hand, 2))]
    return [Discard(seat, (c,)) for c in discardable(rule, distinct)]


def _team_sizes(players: int) -> tuple[int, ...]:
    """Allowed sizes of the first player's team."""
    return {3: (1, 2), 4: (2,), 5: (2, 3)}[players]


@cache
def _team_choices(players: int, first: int) -> tuple[ChooseTeams, ...]:
    others = [s for s in range(players) if s != first]
    choices = []
    for size in _team_sizes(players):
        for mates in combinations(others, size - 1):
            team = (first, *mates)
            other = tuple(s for s in others if s not in mates)
            if players == 3:
                choices.append(ChooseTeams(first, team, (team if size == 1 else other)[0]))
            elif players == 4:
                choices.append(ChooseTeams(first, team, None))
            else:
                for holder in team if size == 2 else other:
                    choices.append(ChooseTeams(first, team, holder))
    return tuple(choices)


# --- applying a move --------------------------------------------------------------------------


def apply(state: GameState, move: Move) -> GameState:
    """The state after ``move``. Raises ``IllegalMove`` (and changes nothing) if it is refused,
    also when ``move`` is not a well-formed move (any other object, a bool for a seat, a list for
    a card...): callers may pass anything."""
    if type(move) is PlayCard and state.phase == TRICKS:  # most moves: checked in _play_card
        return _play_card(state, move)
    _check_form(move)
    if state.phase == OVER:
        raise IllegalMove("game_over", gettext_noop("The game is over."))
    seat = move.seat
    if not 0 <= seat < state.players:
        raise IllegalMove("no_such_seat", gettext_noop("There is no seat {seat}."), seat=seat)
    if type(move) is PlaceToken:
        return _place_token(state, move)
    if type(move) is Discard or type(move) is PassCard:
        return _choose_discard(state, move)
    if type(move) is ChooseTeams:
        return _choose_teams(state, move)
    _refuse_phase(state, TRICKS)  # a PlayCard, outside the tricks phase
    raise _malformed()  # not reached


def _malformed() -> IllegalMove:
    return IllegalMove("malformed", gettext_noop("That move is not understood."))


def _is_cards(value: Any) -> bool:
    return type(value) in (tuple, list) and all(type(c) is str for c in value)


# Each kind of move, its name and a check of its fields' types. Types are exact: a bool is not a
# seat (True == 1), a str subclass is not a card. The values are the rules' business, further on.
_FORMS: dict[type, tuple[str, Callable[[Any], bool]]] = {
    PlaceToken: ("token", lambda m: type(m.line) is str and type(m.box) is str),
    ChooseTeams: (
        "teams",
        lambda m: (
            type(m.team) in (tuple, list)
            and all(type(s) is int for s in m.team)
            and (m.bonus is None or type(m.bonus) is int)
        ),
    ),
    Discard: ("discard", lambda m: _is_cards(m.cards)),
    PassCard: ("pass", lambda m: type(m.card) is str),
    PlayCard: ("play", lambda m: type(m.card) is str),
}


def _check_form(move: object) -> None:
    """Refuse (``IllegalMove``) anything but a move of one of the five kinds, named by its own
    kind, with fields of the right types."""
    form = _FORMS.get(type(move))
    if form is None:
        raise _malformed()
    name, fields_ok = form
    seated = cast(Move, move)  # its type is one of the five kinds
    if type(seated.seat) is not int or seated.kind != name or not fields_ok(move):
        raise _malformed()


def _refuse_phase(state: GameState, wanted: str) -> None:
    if state.phase != wanted:
        messages = {
            BOARD: gettext_noop("Tokens go on the board only during the NYET! phase."),
            TEAMS: gettext_noop("Teams are chosen only when the board is done."),
            DISCARD: gettext_noop("Cards are discarded or passed only before the first trick."),
            TRICKS: gettext_noop("Cards are played only once discards and passes are done."),
        }
        raise IllegalMove("wrong_phase", messages[wanted])


def _refuse_turn(state: GameState, seat: int) -> None:
    if seat != state.turn:
        raise IllegalMove("not_your_turn", gettext_noop("It is not your turn."))


def _place_token(state: GameState, move: PlaceToken) -> GameState:
    _refuse_phase(state, BOARD)
    seat, line, box, _ = move
    if seat != state.turn:
        raise IllegalMove("not_your_turn", gettext_noop("It is not your turn."))
    if line not in BOXES or box not in BOXES[line]:
        raise IllegalMove(
            "no_such_box",
            gettext_noop("There is no box {box} on line {line}."),
            line=line,
            box=box,
        )
    boxes = state.open[line]
    if box not in boxes:
        if line == "first" and int(box) >= state.players:
            raise IllegalMove(
                "unused_character",
                gettext_noop("Nobody sits at character {box}: its box stays covered all game."),
                box=box,
            )
        raise IllegalMove("box_covered", gettext_noop("That box is already covered."))
    if len(boxes) == 1:
        raise IllegalMove(
            "last_box",
            gettext_noop("That is the last open box of its line: it can never be covered."),
        )
    new = state._evolve()
    new.tokens = (*state.tokens, Token(seat, line, box))
    i = boxes.index(box)
    new.open = {**state.open, line: boxes[:i] + boxes[i + 1 :]}
    if len(new.tokens) < state.players + 14:
        new.turn = (seat + 1) % state.players
        return new
    terms = new.terms = terms_of(new.open)
    if state.players == 2:
        other = 1 - terms.first
        return _start_discard(new, ((terms.first,), (other,)), None)
    new.phase = TEAMS
    new.turn = terms.first
    return new


def _choose_teams(state: GameState, move: ChooseTeams) -> GameState:
    _refuse_phase(state, TEAMS)
    _refuse_turn(state, move.seat)
    teams, bonus = check_teams(state.players, move.seat, move.team, move.bonus)
    return _start_discard(state._evolve(), teams, bonus)


def check_teams(
    players: int, first: int, team: Sequence[int], bonus: int | None
) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], int | None]:
    """The teams and bonus holder the first player's choice makes; ``IllegalMove`` if refused."""
    if players == 2:
        raise IllegalMove("no_team_choice", gettext_noop("With 2 players each plays alone."))
    if any(type(s) is not int or not 0 <= s < players for s in (*team, bonus or 0)):
        raise IllegalMove("no_such_seat", gettext_noop("Choose players seated at this table."))
    if len(set(team)) != len(team):
        raise IllegalMove("team_twice", gettext_noop("Name each player of your team once."))
    if first not in team:
        raise IllegalMove("team_without_first", gettext_noop("Your team must include you."))
    if len(team) not in _team_sizes(players):
        messages = {
            3: gettext_noop("With 3 players you play alone or take one partner."),
            4: gettext_noop("With 4 players you take exactly one partner."),
            5: gettext_noop("With 5 players you take one or two partners."),
        }
        raise IllegalMove("team_size", messages[players])
    mine = tuple(sorted(team))
    others = tuple(s for s in range(players) if s not in team)
    if players == 3:
        solo = (mine if len(mine) == 1 else others)[0]
        if bonus not in (None, solo):
            raise IllegalMove(
                "bonus_holder", gettext_noop("With 3 players the solo player holds the bonus card.")
            )
        bonus = solo
    elif players == 4:
        if bonus is not None:
            raise IllegalMove(
                "bonus_holder", gettext_noop("With 4 players there is no bonus card.")
            )
    elif bonus not in (mine if len(mine) == 2 else others):
        raise IllegalMove(
            "bonus_holder",
            gettext_noop("Give the bonus card to a player of the two-player team."),
        )
    return (mine, others), bonus


def _start_discard(
    new: GameState, teams: tuple[tuple[int, ...], tuple[int, ...]], bonus: int | None
) -> GameState:
    new.teams = teams
    new.bonus = bonus
    assert new.terms is not None
    if new.terms.discard == "none":
        return _start_tricks(new)
    new.phase = DISCARD
    return new


def check_discard(rule: str, hand: Sequence[str], cards: Sequence[str]) -> None:
    """Refuse (``IllegalMove``) cards that may not be discarded (or passed) under line 2's rule."""
    count = CARDS_CHOSEN[rule]
    if len(cards) != count:
        messages = {
            0: gettext_noop("No card is discarded this round."),
            1: gettext_noop("Choose exactly one card."),
            2: gettext_noop("Choose exactly two cards."),
        }
        raise IllegalMove("card_count", messages[count])
    rest = list(hand)
    for c in cards:
        if c not in rest:
            raise IllegalMove("not_in_hand", gettext_noop("You do not hold {card}."), card=c)
        rest.remove(c)
    allowed = discardable(rule, hand)
    if any(c not in allowed for c in cards):
        raise IllegalMove(
            "discard_a_1",
            gettext_noop("This round you may not discard a 1 while you hold another card."),
        )


def _choose_discard(state: GameState, move: Discard | PassCard) -> GameState:
    _refuse_phase(state, DISCARD)
    seat = move.seat
    if state.choices[seat] is not None:
        raise IllegalMove(
            "already_chosen", gettext_noop("You have already made your choice for this round.")
        )
    assert state.terms is not None
    rule = state.terms.discard
    if rule == "pass_left" and type(move) is Discard:
        raise IllegalMove(
            "must_pass", gettext_noop("This round you pass a card to the left; nobody discards.")
        )
    if rule != "pass_left" and type(move) is PassCard:
        raise IllegalMove("must_discard", gettext_noop("This round you discard; nobody passes."))
    cards = move.cards if isinstance(move, Discard) else (move.card,)
    check_discard(rule, state.hands[seat], cards)
    new = state._evolve()
    choices = list(state.choices)
    choices[seat] = sort_cards(cards)
    new.choices = tuple(choices)
    if None in choices:
        return new
    # Everyone has chosen: only now do the cards leave the hands (and passes arrive).
    made = [c for c in choices if c is not None]
    new.hands = tuple(sort_cards(h) for h in hands_after(rule, state.hands, made))
    return _start_tricks(new)


def _start_tricks(new: GameState) -> GameState:
    new.phase = TRICKS
    assert new.terms is not None
    new.leader = new.turn = new.terms.first
    new.trick = ()
    return new


def _play_card(state: GameState, move: PlayCard) -> GameState:
    seat, c, kind = move
    # The hottest path: a good move pays three comparisons. The seat's type is checked even when
    # it equals the turn (True == 1), the form fully only once the move is refused anyway.
    if seat != state.turn or type(seat) is not int or kind != "play":
        _check_form(move)
        raise IllegalMove("not_your_turn", gettext_noop("It is not your turn."))
    hand = state.hands[seat]
    if c not in hand:
        _check_form(move)
        raise IllegalMove("not_in_hand", gettext_noop("You do not hold {card}."), card=c)
    terms = state.terms
    assert terms is not None
    trick = state.trick
    if trick:
        suit_of = SUITS[terms.trump, terms.super]
        led = suit_of[trick[0]]
        if suit_of[c] != led and any(suit_of[h] == led for h in hand):
            raise IllegalMove("must_follow", gettext_noop("You must follow the suit led."))
    new = object.__new__(GameState)  # state._evolve(), inlined: the hottest path
    new.__dict__ = state.__dict__.copy()
    i = hand.index(c)
    hands = list(state.hands)
    hands[seat] = hand[:i] + hand[i + 1 :]
    new.hands = tuple(hands)
    trick = (*trick, c)
    n = state.players
    if len(trick) < n:
        new.trick = trick
        new.turn = (seat + 1) % n
        return new
    finished = _take_trick(state, trick)
    winner, taken = finished.winner, finished.loot
    new.tricks = (*state.tricks, finished)
    won = list(state.tricks_won)
    won[winner] += 1
    new.tricks_won = tuple(won)
    if taken:
        looted = list(state.loot_won)
        looted[winner] += len(taken)
        new.loot_won = tuple(looted)
    new.trick = ()
    new.leader = new.turn = winner
    if hands[winner]:
        return new
    return _end_round(new)


def _take_trick(state: GameState, cards: tuple[str, ...]) -> Trick:
    """The trick ``cards`` (all of them, led by ``state.leader``) make: who takes it, its loot."""
    n = state.players
    leader = state.leader
    terms = state.terms
    assert terms is not None
    winner = trick_winner(leader, cards, n, terms.trump, terms.super)
    taken = (
        ()
        if ONES.isdisjoint(cards)
        else tuple(loot(cards, play_order(leader, n), winner, state.team_of))
    )
    return Trick(leader, cards, winner, taken)


class Outcome(NamedTuple):
    """A move applied, with what it decided: what the site's records are written from."""

    state: GameState
    token: Token | None  # the token it placed
    trick: Trick | None  # the trick it finished
    result: RoundResult | None  # the round it finished


def play(state: GameState, move: Move) -> Outcome:
    """``apply``, and what the move decided (each None where it decided nothing of the kind).
    A round's last trick is no longer in the state after it (the next round is dealt), so the
    trick comes from the same function that took it."""
    after = apply(state, move)
    token = after.tokens[-1] if type(move) is PlaceToken else None
    trick = None
    if type(move) is PlayCard and len(state.trick) == state.players - 1:
        trick = _take_trick(state, (*state.trick, move.card))
    result = after.results[-1] if len(after.results) > len(state.results) else None
    return Outcome(after, token, trick, result)


def _end_round(new: GameState) -> GameState:
    terms, teams = new.terms, new.teams
    assert terms is not None and teams is not None
    scores = round_scores(teams, new.bonus, terms.points, new.tricks_won, new.loot_won)
    result = RoundResult(
        new.dealer, terms, teams, new.bonus, new.tricks_won, new.loot_won, tuple(scores)
    )
    new.results = (*new.results, result)
    if standings(new.players, new.target, [r.scores for r in new.results]).over:
        new.phase = OVER
        return new
    dealer = (new.dealer + 1) % new.players
    return _deal(new, dealer, _shuffled_hands(new.players, new.seed, len(new.results) + 1))


def game_standings(state: GameState) -> Standings:
    """Totals, whether the game is over, and its winners."""
    return standings(state.players, state.target, [r.scores for r in state.results])


def replay(players: int, seed: int, target: int | None, moves: Iterable[Move]) -> GameState:
    """The state after these moves from a new game: the move log and the seed rebuild a game."""
    state = new_game(players, seed, target)
    for move in moves:
        state = apply(state, move)
    return state
