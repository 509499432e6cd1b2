"""The refusals every kind of move may meet: a move not understood, the wrong phase, not your
turn. Each raises ``IllegalMove``; the phases' own refusals live with their moves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from .errors import IllegalMove, gettext_noop
from .moves import ChooseTeams, Discard, Move, PassCard, PlaceToken, PlayCard
from .state import BOARD, DISCARD, TEAMS, TRICKS, GameState


def malformed() -> IllegalMove:
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


def check_form(move: object) -> None:
    """Refuse (``IllegalMove``) anything but a move of one of the five kinds, named by its own
    kind, with fields of the right types."""
    form = _FORMS.get(type(move))
    if form is None:
        raise malformed()
    name, fields_ok = form
    seated = cast(Move, move)  # its type is one of the five kinds
    if type(seated.seat) is not int or seated.kind != name or not fields_ok(move):
        raise malformed()


def refuse_phase(state: GameState, wanted: str) -> None:
    if state.phase != wanted:
        messages = {
            BOARD: gettext_noop("Tokens go on the board only during the NYET! phase."),
            TEAMS: gettext_noop("Teams are chosen only when the board is done."),
            DISCARD: gettext_noop("Cards are discarded or passed only before the first trick."),
            TRICKS: gettext_noop("Cards are played only once discards and passes are done."),
        }
        raise IllegalMove("wrong_phase", messages[wanted])


def refuse_turn(state: GameState, seat: int) -> None:
    if seat != state.turn:
        raise IllegalMove("not_your_turn", gettext_noop("It is not your turn."))
