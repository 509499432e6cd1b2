"""The ``/api/v1/`` schemas: what each route takes and answers, and (below) the streams' events.
They make the OpenAPI document (``/api/v1/openapi.json``), with the streams added to it
(``with_streams``).

A game is ``engine.view(state, seat)`` exactly (``View``): every key typed, cards in their
notation (``"Y7"``), and the engine's moves as a union of one schema per kind (``Move``), told
apart by the one key each has. The enums are read from the lists the site keeps (the bot levels
from ``User.BotLevel``, the phases and the board from the engine, the times per move from
``actions.lobby.TIME_CONTROLS``): none is written out twice."""

from __future__ import annotations

import operator
from enum import StrEnum
from functools import reduce
from typing import Annotated, Any, Literal

from ninja import Schema
from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, TypeAdapter, create_model

from accounts.models import User
from games import engine
from games.actions.lobby import TIME_CONTROLS
from games.models import Game


def _enum(name: str, values, doc: str) -> type[StrEnum]:
    made = StrEnum(name, [(str(v), str(v)) for v in values])
    made.__doc__ = doc
    return made


GameStatus = _enum("GameStatus", Game.Status.values, "A table's or a game's status.")
TimeControl = _enum(
    "TimeControl",
    Game.TimeControl.values,
    "live: a person waits for each move; correspondence: days per move.",
)
Visibility = _enum(
    "Visibility", Game.Visibility.values, "public: listed in the lobby; private: by invite only."
)
BotLevel = _enum("BotLevel", User.BotLevel.values, "A bot's level (expert: correspondence only).")
Pace = _enum(
    "Pace",
    [f"{control}:{seconds}" for control, options in TIME_CONTROLS.items() for seconds in options],
    "A time control and its seconds per move, as offered by the lobby.",
)
Phase = _enum(
    "Phase",
    engine.PHASES,
    "The Round's phase: the board (NYET! tokens), the teams, the discard or pass (every seat "
    "at once), the tricks; over once the game is.",
)
Line = _enum("Line", engine.LINES, "A line of the board.")
DiscardRule = _enum("DiscardRule", engine.BOXES["discard"], "Line 2's boxes: discard or pass.")
Color = _enum("Color", engine.BOXES["trump"], "A color: line 3's boxes.")
SuperColor = _enum("SuperColor", engine.BOXES["super"], "Line 4's boxes: a color, or none.")

CARD_PATTERN = r"^[BRYG](1[0-3]|[1-9])$"
# A card in its notation: color letter and value, "B1" to "G13" (three 1s per color).
Card = Annotated[str, Field(pattern=CARD_PATTERN, examples=["Y7"])]
# A card in a move sent: documented as a card, but any text is read, so that a card that does
# not exist is refused with the engine's own message ("There is no card Z9.", no_such_card).
MoveCard = Annotated[str, Field(json_schema_extra={"pattern": CARD_PATTERN}, examples=["Y7"])]


class Error(Schema):
    code: str
    message: str


class RatingOut(Schema):
    value: int  # on the scale of chess sites: everyone starts at 1500
    spread: int  # ± this much: 350 to start with, narrowing as the games tell more
    provisional: bool  # the spread is still wide (about the first ten games): shown as "1500?"


class Account(Schema):
    username: str
    name: str
    is_bot: bool  # a bot account (the site's own bots never use the API)
    rating: RatingOut | None  # None before the first rated game
    rated_games: int


class PlaceOut(Schema):
    seat: int
    name: str
    total: int
    rank: int  # 1 for the winners; a seat that left comes after every seat that played on
    tied: bool
    left: bool  # ended the game on autopilot: ranked last whatever its points
    resigned: bool
    reason: str  # why a seat that left is ranked last, in words; "" otherwise


class ResultOut(Schema):
    winners: list[int]  # seats in first place
    places: list[PlaceOut]  # first to last


class SeatOut(Schema):
    position: int
    name: str
    is_bot: bool
    username: str | None


class TableOut(Schema):
    id: int
    status: GameStatus
    players: int
    time_control: TimeControl
    move_seconds: int
    target: int | None
    visibility: Visibility
    version: int
    seats: list[SeatOut]
    my_seat: int | None


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
PassMove = create_model(
    "PassMove",
    __base__=_Exact,
    __doc__="The discard phase under pass_left: the card given to the seat on the left.",
    **{"pass": (MoveCard, ...)},
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


def _union(schemas: dict[str, type]):
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


Move = _union(
    {"token": TokenMove, "teams": TeamsMove, "discard": DiscardMove, "pass": PassMove}
    | {"play": PlayMove}
)


def _seated(schema: type) -> type:
    """The move with the seat that makes it, first (as the engine writes it)."""
    fields = {key: (info.annotation, info) for key, info in schema.model_fields.items()}
    return create_model(
        f"Seated{schema.__name__}",
        __base__=_Exact,
        __doc__=schema.__doc__,
        seat=(int, ...),
        **fields,
    )


SeatedMove = _union(
    {
        kind: _seated(schema)
        for kind, schema in zip(
            MOVE_KINDS, (TokenMove, TeamsMove, DiscardMove, PassMove, PlayMove), strict=True
        )
    }
)


# --- the view: engine.view(state, seat) ----------------------------------------------------
# A deliberate mirror of the engine's TypedDicts (games/engine/view.py): pydantic models document
# and validate what the engine types for mypy. tests/test_types.py fails when the two disagree on
# a key, nested or not.


class OpenBoxes(BaseModel):
    """Each line's open boxes (the unused characters' boxes of line 1 are covered all game)."""

    first: list[str]  # "0" to "4": the seat that leads the first Trick
    discard: list[DiscardRule]
    trump: list[Color]
    super: list[SuperColor]
    points: list[str]  # "1", "2", "3", "4", "-2"


class BoardOut(BaseModel):
    tokens: list[tuple[int, Line, str]]  # [seat, line, box], in the order they were placed
    open: OpenBoxes


class TermsOut(BaseModel):
    """What the board decided for the Round: the one open box of each line."""

    first: int
    discard: DiscardRule
    trump: Color
    super: SuperColor
    points: int


class TrickInPlay(BaseModel):
    leader: int
    cards: list[Card]  # in play order, the leader's first


class TrickOut(BaseModel):
    leader: int
    cards: list[Card]
    winner: int
    loot: list[Card]


class RoundOut(BaseModel):
    """A finished Round on the scorepad."""

    dealer: int
    terms: TermsOut
    teams: list[list[int]]  # the first player's team, then the others
    bonus: int | None
    tricks: list[int]  # tricks won per seat
    loot: list[int]  # loot cards captured per seat
    scores: list[int]


class View(BaseModel):
    """A game as one seat sees it (``seat`` null: a spectator's view, without hand or legal
    moves): exactly the engine's ``view(state, seat)``."""

    seat: int | None
    players: int
    target: int | None  # the point target; null: a fixed number of rounds
    rounds: int | None  # that number of rounds; null with a point target
    round: int  # the Round in play, from 1 (when over: the rounds played)
    dealer: int
    phase: Phase
    to_act: list[int]  # the seats that may move now: several at once in the discard phase
    board: BoardOut
    terms: TermsOut | None  # once the board is done
    teams: list[list[int]] | None  # once chosen: the first player's team, then the others
    bonus: int | None
    hand: list[Card]  # my cards (none for a spectator)
    hand_sizes: list[int]
    out_of_play: int  # cards set aside (2 players)
    chosen: list[bool]  # per seat: its discard or pass is made (the cards stay secret)
    choice: list[Card] | None  # my own discard or pass, once made
    received: Card | None  # the card passed to me, once all passes are made
    trick: TrickInPlay
    tricks: list[TrickOut]  # this Round's finished tricks
    tricks_won: list[int]
    loot_won: list[int]
    results: list[RoundOut]  # the finished rounds
    totals: list[int]
    over: bool
    legal: list[SeatedMove]  # my legal moves now, each with my seat


class GameOut(Schema):
    id: int
    status: GameStatus
    version: int
    my_seat: int | None
    seats: list[SeatOut]  # who sits where
    view: View | None  # engine.view(state, my_seat): None before the game starts
    legal: list[Move]  # the moves my seat may make now, without their "seat"
    result: ResultOut | None  # once the game is finished: the winners and the ranking


class NewTable(Schema):
    players: int  # 2 to 5
    bots: list[BotLevel | None] = []  # seats 1, 2, …: a bot of this level, or null: open
    target: int | None = None  # a point target; null: the fixed number of rounds
    move_seconds: Pace | None = None  # null: live:300
    visibility: Visibility | None = None  # null: public


class JoinIn(Schema):
    invite: str = ""


class SeatBotIn(Schema):
    username: str  # a bot account's


class StartIn(Schema):
    level: BotLevel = BotLevel(User.DEFAULT_BOT_LEVEL)


class MoveIn(Schema):
    version: int  # the game's version the move was chosen at
    move: Move  # the engine's move without "seat", e.g. {"play": "Y7"}
    round: int | None = Field(
        None,
        description=(
            "Not needed (kept for old clients): a discard or pass made at a version of this "
            "Round's discard phase is taken even when other seats chose since (the version "
            "moved on). If sent, the Round the discard or pass was chosen in."
        ),
    )


class RecordRound(RoundOut):
    deal: list[list[Card]]  # each seat's hand as dealt


class RecordOut(Schema):
    id: int
    players: int
    target: int | None
    seats: list[SeatOut]
    moves: list[SeatedMove]  # each with its "seat", in order
    rounds: list[RecordRound]  # each round's deal, terms, teams, tricks, loot and scores
    final: View  # the last view (a spectator's): every total
    result: ResultOut  # the winners and the ranking


# --- stream events ---------------------------------------------------------------------------
# Each line of a stream (application/x-ndjson) is one event, told apart by its "type". To add
# an event: its schema here, then its name in the stream's union below.


class GameEvent(GameOut):
    """The game as my seat sees it: first the current one, then after every change."""

    type: Literal["game"]


class KeepAlive(Schema):
    """Nothing happened for a while: the connection is alive."""

    type: Literal["keep-alive"]


class GameStartEvent(Schema):
    """A game of mine is in play."""

    type: Literal["gameStart"]
    game: int


class YourTurnEvent(Schema):
    """My seat's turn began: move at this version."""

    type: Literal["yourTurn"]
    game: int
    version: int


class GameOverEvent(Schema):
    """A game of mine ended: finished or aborted."""

    type: Literal["gameOver"]
    game: int
    status: GameStatus


# "from" is a Python keyword: the field is made by name.
InvitationEvent = create_model(
    "InvitationEvent",
    __base__=Schema,
    __doc__="An invitation to an open table waiting for an answer, to me or from me: its id (to "
    "accept, decline or cancel it), the game, the inviter's and the invitee's usernames.",
    type=(Literal["invitation"], ...),
    id=(int, ...),
    game=(int, ...),
    to=(str, ...),
    **{"from": (str, ...)},
)


class InvitationGoneEvent(Schema):
    """An invitation I was told of waits no more: accepted, declined, cancelled, or its table
    started or went."""

    type: Literal["invitationGone"]
    id: int
    game: int


RematchOfferEvent = create_model(
    "RematchOfferEvent",
    __base__=Schema,
    __doc__="Someone asks me for a rematch of a finished game: accept with POST "
    "/games/{game}/rematch, decline with /rematch/decline.",
    type=(Literal["rematchOffer"], ...),
    game=(int, ...),
    offer=(int, ...),
    **{"from": (str, ...)},
)


class RematchGoneEvent(Schema):
    """A rematch offer I knew of is no longer open: ``new_game`` is the rematch once everyone
    accepted, else null (declined, cancelled, expired)."""

    type: Literal["rematchGone"]
    game: int
    offer: int
    new_game: int | None


GameStreamEvent = Annotated[GameEvent | KeepAlive, Field(discriminator="type")]
AccountStreamEvent = Annotated[
    GameStartEvent
    | YourTurnEvent
    | GameOverEvent
    | InvitationEvent
    | InvitationGoneEvent
    | RematchOfferEvent
    | RematchGoneEvent
    | KeepAlive,
    Field(discriminator="type"),
]

STREAMS = {
    "/stream": (
        "account_stream",
        "My account's events",
        "First what holds now (my games in play, my turns, my invitations, the rematch offers "
        "I have to answer), then a keep-alive line; then each change, and keep-alive lines. "
        "Needs the read scope.",
        "AccountStreamEvent",
        AccountStreamEvent,
    ),
    "/games/{game_id}/stream": (
        "game_stream",
        "A game's events",
        "The game as my seat sees it (a spectator's view for anyone not seated): first the "
        "current one, then after every change; keep-alive lines when nothing happens.",
        "GameStreamEvent",
        GameStreamEvent,
    ),
}


def with_streams(schema: dict, prefix: str) -> dict:
    """The OpenAPI document with the two streams (plain views beside the API's routes) added:
    each answers newline-delimited JSON, a line an event of the stream's union."""
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    errors = {
        status: {
            "description": description,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        }
        for status, description in (
            ("401", "No token, or a bad one"),
            ("403", "The token lacks the read scope"),
            ("404", "No such game (or not mine to see)"),
            ("429", "Too many calls"),
        )
    }
    for path, (operation_id, summary, description, name, events) in STREAMS.items():
        adapter = TypeAdapter(events)
        found = adapter.json_schema(
            ref_template="#/components/schemas/{model}", mode="serialization"
        )
        for key, definition in found.pop("$defs", {}).items():
            components.setdefault(key, definition)
        components[name] = {
            **found,
            "title": name,
            "description": "One line of the stream, told apart by its type.",
        }
        operation: dict = {
            "operationId": operation_id,
            "summary": summary,
            "description": description
            + " Under a server without ASGI the answer is 204, with no body.",
            "tags": ["streams"],
            "responses": {
                "200": {
                    "description": "Newline-delimited JSON: each line one event",
                    "content": {
                        "application/x-ndjson": {"schema": {"$ref": f"#/components/schemas/{name}"}}
                    },
                },
                "204": {"description": "No stream here (the server runs without ASGI)"},
                **{k: v for k, v in errors.items() if k != "404" or "{game_id}" in path},
            },
            "security": [{"BearerToken": []}, {"SessionAuth": []}],
        }
        if "{game_id}" in path:
            operation["parameters"] = [
                {"in": "path", "name": "game_id", "required": True, "schema": {"type": "integer"}}
            ]
        schema.setdefault("paths", {})[prefix.rstrip("/") + path] = {"get": operation}
    return schema
