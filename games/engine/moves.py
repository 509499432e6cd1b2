"""Moves, and their JSON form (the notation of the rules vectors).

Every move names the Seat that makes it. The ``kind`` field keeps moves of different kinds
unequal even when their other fields match (a pass of ``B1`` is not a play of ``B1``).
"""

from __future__ import annotations

from typing import NamedTuple

from .board import BOXES, LINES
from .cards import is_card
from .errors import IllegalMove, gettext_noop


class PlaceToken(NamedTuple):
    seat: int
    line: str
    box: str
    kind: str = "token"


class ChooseTeams(NamedTuple):
    seat: int
    team: tuple[int, ...]  # the first player's team, the first player included
    bonus: int | None
    kind: str = "teams"


class Discard(NamedTuple):
    seat: int
    cards: tuple[str, ...]
    kind: str = "discard"


class PassCard(NamedTuple):
    seat: int
    card: str
    kind: str = "pass"


class PlayCard(NamedTuple):
    seat: int
    card: str
    kind: str = "play"


Move = PlaceToken | ChooseTeams | Discard | PassCard | PlayCard
KINDS = ("token", "teams", "discard", "pass", "play")


def move_to_json(move: Move) -> dict:
    if isinstance(move, PlaceToken):
        arg: object = [move.line, move.box]
    elif isinstance(move, ChooseTeams):
        arg = {"team": list(move.team), "bonus": move.bonus}
    elif isinstance(move, Discard):
        arg = list(move.cards)
    else:
        arg = move.card
    return {"seat": move.seat, move.kind: arg}


def _malformed() -> IllegalMove:
    return IllegalMove("malformed", gettext_noop("That move is not understood."))


def _seat(value: object) -> int:
    if type(value) is not int:
        raise _malformed()
    return value


def _card(value: object) -> str:
    if not is_card(value):
        raise IllegalMove("no_such_card", gettext_noop("There is no card {card}."), card=value)
    return value  # type: ignore[return-value]


def move_from_json(data: object) -> Move:
    """Parse a move in the rules notation; raise ``IllegalMove`` if it is not a well-formed move.

    Well-formed is not legal: whether the move may be made now is ``apply``'s question.
    """
    if not isinstance(data, dict) or "seat" not in data or len(data) != 2:
        raise _malformed()
    seat = _seat(data["seat"])
    kind = next(k for k in data if k != "seat")
    arg = data[kind]
    if kind == "token":
        if not (isinstance(arg, list | tuple) and len(arg) == 2):
            raise _malformed()
        line, box = (str(part) for part in arg)
        if line not in LINES or box not in BOXES[line]:
            raise IllegalMove(
                "no_such_box",
                gettext_noop("There is no box {box} on line {line}."),
                line=line,
                box=box,
            )
        return PlaceToken(seat, line, box)
    if kind == "teams":
        if not isinstance(arg, dict) or set(arg) != {"team", "bonus"}:
            raise _malformed()
        team, bonus = arg["team"], arg["bonus"]
        if not isinstance(team, list | tuple):
            raise _malformed()
        return ChooseTeams(
            seat, tuple(_seat(s) for s in team), None if bonus is None else _seat(bonus)
        )
    if kind == "discard":
        if not isinstance(arg, list | tuple):
            raise _malformed()
        return Discard(seat, tuple(_card(c) for c in arg))
    if kind == "pass":
        return PassCard(seat, _card(arg))
    if kind == "play":
        return PlayCard(seat, _card(arg))
    raise _malformed()
