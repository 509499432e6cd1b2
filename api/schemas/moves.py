"""The engine's moves in their JSON form, as schemas: one per kind, each with its one key, and
their unions (``Move``, as sent; ``SeatedMove``, with the seat that makes it), told apart by
that key. Cards in their notation (``Card``, ``"Y7"``)."""

from __future__ import annotations

import operator
from functools import reduce
from typing import TYPE_CHECKING, Annotated, Any, TypeAlias

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, create_model

from .enums import Line

CARD_PATTERN = r"^[BRYG](1[0-3]|[1-9])$"
# A card in its notation: color letter and value, "B1" to "G13" (three 1s per color).
Card = Annotated[str, Field(pattern=CARD_PATTERN, examples=["Y7"])]
# A card in a move sent: documented as a card, but any text is read, so that a card that does
# not exist is refused with the engine's own message ("There is no card Z9.", no_such_card).
MoveCard = Annotated[str, Field(json_schema_extra={"pattern": CARD_PATTERN}, examples=["Y7"])]


# --- moves: the engine's JSON form ---------------------------------------------------------
# One schema per kind, each with its one key (and "seat" in the seated form the view and the
# record show). A move sent has no "seat": it is made for the caller's.


# The game's own schemas (the view, the moves) are plain pydantic models: ninja's ``Schema``
# reads Django objects too, at a cost each key pays (a view is read on every call).


class _Exact(BaseModel):
    """No key but its own."""

    model_config = ConfigDict(extra="forbid")


class TeamsChoice(_Exact):
    team: list[int]  # the first player's team, the first player included
    bonus: int | None  # who holds the bonus card (3 and 5 players), else null


class TokenMove(_Exact):
    """The board phase: cover a box with a NYET! Token, ``[line, box]``."""

    token: tuple[Line, str]


class TeamsMove(_Exact):
    """The teams phase: the first player forms the teams."""

    teams: TeamsChoice


class DiscardMove(_Exact):
    """The discard phase, as line 2 says: the cards to discard (none, one or two)."""

    discard: list[MoveCard]


# "pass" is a Python keyword: the field is made by name.
_PASS: dict[str, Any] = {"pass": (MoveCard, ...)}
PassMove = create_model(
    "PassMove",
    __base__=_Exact,
    __doc__="The discard phase under pass_left: the card given to the seat on the left.",
    **_PASS,
)


class PlayMove(_Exact):
    """The tricks phase: play a card to the Trick."""

    play: MoveCard


MOVE_KINDS = ("token", "teams", "discard", "pass", "play")


def _kind(value: Any) -> str | None:
    """The move's kind: its one key of ``MOVE_KINDS`` (None when it has none or several)."""
    if isinstance(value, dict):
        kinds = [k for k in MOVE_KINDS if k in value]
        return kinds[0] if len(kinds) == 1 else None
    fields = getattr(type(value), "model_fields", {})
    return next((k for k in MOVE_KINDS if k in fields), None)


def _union(schemas: dict[str, type[_Exact]]) -> Any:
    """The moves' union, each told by its kind (a type expression made at import: Any to mypy)."""
    tagged = [Annotated[schemas[kind], Tag(kind)] for kind in MOVE_KINDS]
    return Annotated[
        reduce(operator.or_, tagged),
        Discriminator(
            _kind,
            custom_error_type="move_kind",
            custom_error_message=(
                "a move is an object with one key of token, teams, discard, pass, play"
                ' (e.g. {"play": "Y7"})'
            ),
        ),
    ]


if TYPE_CHECKING:
    # To mypy a move, sent or seated, is one of the move schemas, all of them ``_Exact``.
    Move: TypeAlias = _Exact
    SeatedMove: TypeAlias = _Exact
else:
    Move = _union(
        {"token": TokenMove, "teams": TeamsMove, "discard": DiscardMove, "pass": PassMove}
        | {"play": PlayMove}
    )


def _seated(schema: type[_Exact]) -> type[_Exact]:
    """The move with the seat that makes it, first (as the engine writes it)."""
    fields: dict[str, Any] = {
        key: (info.annotation, info) for key, info in schema.model_fields.items()
    }
    return create_model(
        f"Seated{schema.__name__}",
        __base__=_Exact,
        __doc__=schema.__doc__,
        seat=(int, ...),
        **fields,
    )


if not TYPE_CHECKING:
    SeatedMove = _union(
        {
            kind: _seated(schema)
            for kind, schema in zip(
                MOVE_KINDS, (TokenMove, TeamsMove, DiscardMove, PassMove, PlayMove), strict=True
            )
        }
    )
