"""The NYET! phase (RULES.md, "A round", 2): the players cover the board's boxes with tokens,
one each in turn, until the open boxes left make the round's ``Terms``.
"""

from __future__ import annotations

from .board import BOXES, LINES, Token, check_box, terms_of
from .errors import IllegalMove, gettext_noop
from .moves import PlaceToken
from .refusals import refuse_phase
from .state import BOARD, TEAMS, GameState
from .teams_phase import start_discard

# Moves are made once and shared: listing legal moves is on every bot's hot path.
TOKEN_MOVES = [
    {line: {box: PlaceToken(seat, line, box) for box in BOXES[line]} for line in LINES}
    for seat in range(5)
]


def place_token(state: GameState, move: PlaceToken) -> GameState:
    refuse_phase(state, BOARD)
    seat, line, box, _ = move
    if seat != state.turn:
        raise IllegalMove("not_your_turn", gettext_noop("It is not your turn."))
    check_box(line, box)
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
    new = state.evolve()
    new.tokens = (*state.tokens, Token(seat, line, box))
    i = boxes.index(box)
    new.open = {**state.open, line: boxes[:i] + boxes[i + 1 :]}
    if len(new.tokens) < state.players + 14:
        new.turn = (seat + 1) % state.players
        return new
    terms = new.terms = terms_of(new.open)
    if state.players == 2:
        other = 1 - terms.first
        return start_discard(new, ((terms.first,), (other,)), None)
    new.phase = TEAMS
    new.turn = terms.first
    return new
