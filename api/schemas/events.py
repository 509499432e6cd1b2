"""The streams' events, and ``with_streams``, which adds the two streams (plain views beside the
API's routes, ``api.stream``) to the OpenAPI document."""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from ninja import Schema
from pydantic import Field, TypeAdapter, create_model

from .enums import GameStatus
from .games import GameOut

# --- stream events ---------------------------------------------------------------------------
# Each line of a stream (application/x-ndjson) is one event, told apart by its "type". To add
# an event: its schema here, then its name in the stream's union below.


def _fields(**types: Any) -> dict[str, Any]:
    """``create_model``'s fields, each of its type and required, in this order."""
    return {name: (kind, ...) for name, kind in types.items()}


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


# "from" is a Python keyword: these events' fields are made by name (as Any to mypy, which reads
# a Literal only in an annotation).
InvitationEvent = create_model(
    "InvitationEvent",
    __base__=Schema,
    __doc__="An invitation to an open table waiting for an answer, to me or from me: its id (to "
    "accept, decline or cancel it), the game, the inviter's and the invitee's usernames.",
    **_fields(type=Literal["invitation"], id=int, game=int, to=str, **{"from": str}),
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
    **_fields(type=Literal["rematchOffer"], game=int, offer=int, **{"from": str}),
)


class RematchGoneEvent(Schema):
    """A rematch offer I knew of is no longer open: ``new_game`` is the rematch once everyone
    accepted, else null (declined, cancelled, expired)."""

    type: Literal["rematchGone"]
    game: int
    offer: int
    new_game: int | None


# The streams' unions are read as values (TypeAdapter, the document), never as annotations: to
# mypy, Any (two of their events are made at import).
GameStreamEvent: Any = Annotated[GameEvent | KeepAlive, Field(discriminator="type")]
AccountStreamEvent: Any = Annotated[
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


# The document as given (ninja's is a dict of its own kind), and so returned.
Document = TypeVar("Document", bound=dict[str, Any])


def with_streams(schema: Document, prefix: str) -> Document:
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
        adapter: TypeAdapter[Any] = TypeAdapter(events)
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
        operation: dict[str, Any] = {
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
