"""Moves, and their JSON form (the notation of the rules vectors).

Every move names the Seat that makes it. The ``kind`` field keeps moves of different kinds
unequal even when their other fields match (a pass of ``B1`` is not a play of ``B1``).
"""

from __future__ import annotations

from typing import NamedTuple, TypedDict, final

from .board import check_box
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


# The JSON form of each kind of move: the seat, and one key named by the kind. Final, so that
# a key tells the kinds apart to mypy too (``if "play" in move``).
@final
class TokenJson(TypedDict):
    seat: int
    token: list[str]  # [line, box]


class TeamsChoiceJson(TypedDict):
    team: list[int]
    bonus: int | None


@final
class TeamsJson(TypedDict):
    seat: int
    teams: TeamsChoiceJson


@final
class DiscardJson(TypedDict):
    seat: int
    discard: list[str]


# "pass" is a Python keyword: the keys are given by name.
_PassKeys = TypedDict("_PassKeys", {"seat": int, "pass": str})


@final
class PassJson(_PassKeys):
    pass


@final
class PlayJson(TypedDict):
    seat: int
    play: str


MoveJson = TokenJson | TeamsJson | DiscardJson | PassJson | PlayJson


def move_to_json(move: Move) -> MoveJson:
    seat = move.seat
    if isinstance(move, PlaceToken):
        return {"seat": seat, "token": [move.line, move.box]}
    if isinstance(move, ChooseTeams):
        return {"seat": seat, "teams": {"team": list(move.team), "bonus": move.bonus}}
    if isinstance(move, Discard):
        return {"seat": seat, "discard": list(move.cards)}
    if isinstance(move, PassCard):
        return {"seat": seat, "pass": move.card}
    return {"seat": seat, "play": move.card}


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
        check_box(line, box)
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
