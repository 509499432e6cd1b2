"""A game move by move: who may act, the moves they may make, and a move applied in its phase
(``apply``), with what it decided (``play``); a game rebuilt from its seed and move log
(``replay``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .board import Token, coverable
from .board_phase import TOKEN_MOVES, place_token
from .discard_phase import choose_discard, discard_choices
from .errors import IllegalMove, gettext_noop
from .moves import ChooseTeams, Discard, Move, PassCard, PlaceToken, PlayCard
from .refusals import check_form, malformed, refuse_phase
from .rounds import new_game
from .state import BOARD, DISCARD, OVER, TEAMS, TRICKS, GameState, RoundResult, Trick
from .teams_phase import choose_teams, team_choices
from .tricks import legal_cards
from .tricks_phase import PLAY_MOVES, play_card, take_trick


def to_act(state: GameState) -> tuple[int, ...]:
    """The seats that may move now (several while discards and passes are chosen)."""
    if state.phase == DISCARD:
        return tuple(s for s, choice in enumerate(state.choices) if choice is None)
    if state.phase == OVER:
        return ()
    return (state.turn,)


def legal_moves(state: GameState, seat: int) -> list[Move]:
    """Every move ``seat`` may make now (none when it is not that seat's turn)."""
    phase = state.phase
    if phase == TRICKS:
        if seat != state.turn:
            return []
        terms = state.terms
        assert terms is not None  # set when the board is done
        plays = PLAY_MOVES[seat]
        return [
            plays[c] for c in legal_cards(state.hands[seat], state.trick, terms.trump, terms.super)
        ]
    if phase == BOARD:
        if seat != state.turn:
            return []
        tokens = TOKEN_MOVES[seat]
        return [tokens[line][box] for line, box in coverable(state.open)]
    if phase == DISCARD:
        if not 0 <= seat < state.players or state.choices[seat] is not None:
            return []
        assert state.terms is not None
        return discard_choices(state.terms.discard, seat, state.hands[seat])
    if phase == TEAMS:
        if seat != state.turn:
            return []
        return list(team_choices(state.players, seat))
    return []


def apply(state: GameState, move: Move) -> GameState:
    """The state after ``move``. Raises ``IllegalMove`` (and changes nothing) if it is refused,
    also when ``move`` is not a well-formed move (any other object, a bool for a seat, a list for
    a card...): callers may pass anything."""
    if type(move) is PlayCard and state.phase == TRICKS:  # most moves: checked in play_card
        return play_card(state, move)
    check_form(move)
    if state.phase == OVER:
        raise IllegalMove("game_over", gettext_noop("The game is over."))
    seat = move.seat
    if not 0 <= seat < state.players:
        raise IllegalMove("no_such_seat", gettext_noop("There is no seat {seat}."), seat=seat)
    if type(move) is PlaceToken:
        return place_token(state, move)
    if type(move) is Discard or type(move) is PassCard:
        return choose_discard(state, move)
    if type(move) is ChooseTeams:
        return choose_teams(state, move)
    refuse_phase(state, TRICKS)  # a PlayCard, outside the tricks phase
    raise malformed()  # not reached


class Played(NamedTuple):
    """A move applied, with what it decided: what the site's records are written from."""

    state: GameState
    token: Token | None  # the token it placed
    trick: Trick | None  # the trick it finished
    result: RoundResult | None  # the round it finished


def play(state: GameState, move: Move) -> Played:
    """``apply``, and what the move decided (each None where it decided nothing of the kind).
    A round's last trick is no longer in the state after it (the next round is dealt), so the
    trick comes from the same function that took it."""
    after = apply(state, move)
    token = after.tokens[-1] if type(move) is PlaceToken else None
    trick = None
    if type(move) is PlayCard and len(state.trick) == state.players - 1:
        trick = take_trick(state, (*state.trick, move.card))
    result = after.results[-1] if len(after.results) > len(state.results) else None
    return Played(after, token, trick, result)


def replay(players: int, seed: int, target: int | None, moves: Iterable[Move]) -> GameState:
    """The state after these moves from a new game: the move log and the seed rebuild a game."""
    state = new_game(players, seed, target)
    for move in moves:
        state = apply(state, move)
    return state
