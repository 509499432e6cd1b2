"""``/api/v1/``: the site as JSON, for clients and bots (django-ninja: typed schemas, and the
OpenAPI schema and its documentation page from the same code, at ``/api/v1/docs``).

Every change goes through ``games.actions`` exactly as the pages do, so the rules, the clocks
and the limits are the same; a refusal is ``{"code": ..., "message": ...}`` with the action's
code (``access.Refusal``, or the action's error, answered by the handlers here). A game is only
ever read through ``engine.view(state, seat)`` (``presenters.game_json``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.http.request import RawPostDataException
from django.utils.translation import gettext as _
from ninja import NinjaAPI, Status
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.openapi.schema import OpenAPISchema
from ninja.security import django_auth

from games import actions, engine, lookups, selectors
from games.actions import ActionError, StaleVersion
from games.actions.errors import RateLimited
from games.forms import first_error
from games.forms.new_game import CreateGameForm
from games.models import Game

from .access import (
    BearerToken,
    Refusal,
    bad_token,
    counted,
    need,
    no_such_game,
    not_logged_in,
    visible_game,
)
from .models import Scope
from .presenters import (
    GameJson,
    TableJson,
    game_json,
    rating_json,
    result_json,
    seats_json,
    table_json,
)
from .schemas.account import Account
from .schemas.events import with_streams
from .schemas.games import (
    Error,
    GameOut,
    JoinIn,
    MoveIn,
    NewTable,
    RecordOut,
    SeatBotIn,
    StartIn,
    TableOut,
)


class Api(NinjaAPI):
    def get_openapi_schema(
        self, *, path_prefix: str | None = None, path_params: dict[str, Any] | None = None
    ) -> OpenAPISchema:
        """Ninja's document, with the two streams (plain views beside the routes) added."""
        schema = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        prefix = self.get_root_path(path_params or {}) if path_prefix is None else path_prefix
        return with_streams(schema, prefix)


api = Api(
    title="Nyet! online",
    version="1",
    description="Play Nyet! from any program: see README.md, “The API”.",
    urls_namespace="api_v1",
    auth=[BearerToken(), django_auth],
)


def _error(
    request: HttpRequest, status: int, code: str, message: str, **headers: str
) -> HttpResponse:
    response: HttpResponse = api.create_response(
        request, {"code": code, "message": message}, status=status
    )
    for name, value in headers.items():
        response[name] = value
    return response


@api.exception_handler(Refusal)
def refused(request: HttpRequest, error: Refusal) -> HttpResponse:
    return _error(request, error.status, error.code, error.message, **error.headers)


@api.exception_handler(ActionError)
def action_refused(request: HttpRequest, error: ActionError) -> HttpResponse:
    if isinstance(error, RateLimited):
        return _error(
            request, 429, error.code, error.message, **{"Retry-After": str(error.retry_after)}
        )
    if error.code == "no_game":  # e.g. the game was removed since it was looked up
        return refused(request, no_such_game())
    status = 409 if isinstance(error, StaleVersion) else 400
    return _error(request, status, error.code, error.message)


@api.exception_handler(AuthenticationError)
def unauthenticated(request: HttpRequest, error: AuthenticationError) -> HttpResponse:
    return refused(
        request, bad_token() if request.headers.get("Authorization") else not_logged_in()
    )


@api.exception_handler(ValidationError)
def malformed(request: HttpRequest, error: ValidationError) -> HttpResponse:
    return _error(
        request,
        400,
        "malformed",
        _("The request is not understood: %(details)s")
        % {
            "details": "; ".join(
                f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}"
                for e in error.errors
            )[:500]
        },
    )


@api.exception_handler(RawPostDataException)
def form_body(request: HttpRequest, error: RawPostDataException) -> HttpResponse:
    """A form's body (read by the input guard already) where JSON is expected."""
    return _error(
        request, 400, "malformed", _("Send the body as JSON (Content-Type: application/json).")
    )


@api.exception_handler(HttpError)
def http_error(request: HttpRequest, error: HttpError) -> HttpResponse:
    code = "malformed" if error.status_code == 400 else "refused"  # e.g. a body that is no JSON
    return _error(request, error.status_code, code, str(error))


@api.get("/account", response={200: Account, 401: Error}, tags=["account"])
def account(request: HttpRequest) -> dict[str, Any]:
    """Who the token (or the session) is."""
    need(request, Scope.READ)
    user = request.user
    rating = getattr(user, "rating", None)
    return {
        "username": user.username,
        "name": user.name,
        "is_bot": user.plays_as_bot,
        "rating": rating_json(rating.shown) if rating else None,
        "rated_games": rating.games if rating else 0,
    }


@api.post(
    "/account/bot", response={200: Account, 400: Error, 401: Error, 403: Error}, tags=["account"]
)
def become_bot(request: HttpRequest) -> dict[str, Any]:
    """Turn my account into a bot account, for good (lichess's "upgrade to bot"): only a new
    account, one that has never sat at a table, and only with a token of the ``bot`` scope. A
    bot account plays through the API only; its name shows the bot mark and it is rated with
    the bots."""
    token = getattr(request, "api_token", None)
    if token is None or Scope.BOT not in token.scopes:
        raise Refusal(
            403, "scope", _("This token lacks the “%(scope)s” scope.") % {"scope": Scope.BOT}
        )
    actions.become_bot_account(request.user)
    return account(request)


@api.get("/tables", response={200: list[TableOut], 401: Error}, tags=["tables"])
def open_tables(request: HttpRequest) -> list[TableJson]:
    """Public tables waiting for players, newest first."""
    need(request, Scope.READ)
    return [table_json(g, request.user) for g in selectors.open_tables()]


@api.get("/games", response={200: list[TableOut], 401: Error}, tags=["games"])
def my_games(request: HttpRequest) -> list[TableJson]:
    """My tables waiting for players and my games in play."""
    need(request, Scope.READ)
    return [table_json(g, request.user) for g in lookups.tables_of(request.user)]


@api.get("/games/{game_id}", response={200: GameOut, 401: Error, 404: Error}, tags=["games"])
def game(request: HttpRequest, game_id: int) -> GameJson:
    """A game as my seat sees it, with my legal moves and the version to move at."""
    need(request, Scope.READ)
    return game_json(visible_game(request, game_id), request.user)


@api.get(
    "/games/{game_id}/record",
    response={200: RecordOut, 401: Error, 404: Error, 409: Error},
    tags=["games"],
)
def record(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """A finished game's whole record, every hand included, for analysis and replay."""
    need(request, Scope.READ)
    game = visible_game(request, game_id)
    if game.status != Game.Status.FINISHED:
        raise Refusal(409, "not_finished", _("The record is shown once the game is over."))
    moves = lookups.moves_of(game)
    # Each round's deal, from a replay of the log (the seed itself stays on the server).
    state = engine.new_game(game.players, game.seed, game.target)
    deals = [[list(hand) for hand in state.hands]]
    for move in moves:
        outcome = engine.play(state, engine.move_from_json(move))
        state = outcome.state
        if outcome.result is not None and state.phase != engine.OVER:
            deals.append([list(hand) for hand in state.hands])
    final = engine.view(state, None)
    return {
        "id": game.pk,
        "players": game.players,
        "target": game.target,
        "seats": seats_json(game),
        "moves": moves,
        "rounds": [
            {**result, "deal": deal} for result, deal in zip(final["results"], deals, strict=True)
        ],
        "final": final,
        "result": result_json(game, final),
    }


# --- changing -------------------------------------------------------------------------------


@api.post(
    "/games",
    response={201: TableOut, 400: Error, 401: Error, 403: Error, 429: Error},
    tags=["tables"],
)
def create(request: HttpRequest, body: NewTable) -> Status[TableJson]:
    """A new table, with the lobby's options; I sit in seat 0."""
    need(request, Scope.PLAY)
    counted(request, "create")
    data: dict[str, object] = {
        "players": body.players,
        "target": body.target or "",
        "move_seconds": body.move_seconds or "",
        "visibility": body.visibility or "",
    }
    for position, level in enumerate(body.bots[:4], start=1):
        data[f"seat_{position}"] = level or ""
    form = CreateGameForm(data)
    if not form.is_valid():
        raise Refusal(400, "invalid", first_error(form))
    new = actions.create_game(request.user, **form.options())
    return Status(201, table_json(new, request.user))


def _table_change(
    request: HttpRequest,
    game_id: int,
    action: Callable[..., Game | None],
    *args: object,
    invite_code: str = "",
) -> TableJson:
    need(request, Scope.PLAY)
    counted(request, "play")
    visible_game(request, game_id, invite_code)
    result = action(request.user, game_id, *args)
    game = lookups.game(game_id) if result is None else result
    if game is None:  # the last person left: the table is gone
        raise no_such_game()
    return table_json(game, request.user)


CHANGE = {200: TableOut, 400: Error, 401: Error, 403: Error, 404: Error, 429: Error}


@api.post("/games/{game_id}/join", response=CHANGE, tags=["tables"])
def join(request: HttpRequest, game_id: int, body: JoinIn) -> TableJson:
    """Take the first open seat (a private table needs its invite code)."""
    return _table_change(request, game_id, actions.join_game, body.invite, invite_code=body.invite)


@api.post("/games/{game_id}/leave", response=CHANGE, tags=["tables"])
def leave(request: HttpRequest, game_id: int) -> TableJson:
    """Give up my seat before the game starts."""
    return _table_change(request, game_id, actions.leave_game)


@api.post("/games/{game_id}/seat-bot", response=CHANGE, tags=["tables"])
def seat_bot(request: HttpRequest, game_id: int, body: SeatBotIn) -> TableJson:
    """Seat a bot account, by its username, in the first open seat of my table (it refuses
    nothing: it is seated at once)."""
    return _table_change(request, game_id, actions.seat_bot_account, body.username)


@api.post("/games/{game_id}/start", response=CHANGE, tags=["tables"])
def start(request: HttpRequest, game_id: int, body: StartIn) -> TableJson:
    """Start my table now, with bots of ``level`` in the open seats."""
    return _table_change(request, game_id, actions.start_game, body.level)


@api.post(
    "/games/{game_id}/move",
    response={200: GameOut, 400: Error, 401: Error, 403: Error, 404: Error, 409: Error, 429: Error},
    tags=["games"],
)
def move(request: HttpRequest, game_id: int, body: MoveIn) -> GameJson:
    """Make a move for my seat, at the version it was chosen for (409 "stale" when the game
    has moved on: read it again)."""
    need(request, Scope.PLAY)
    counted(request, "play")
    visible_game(request, game_id)
    move = body.move.model_dump(mode="json")
    actions.submit_move(request.user, game_id, body.version, move, round_number=body.round)
    found = lookups.game(game_id)
    if found is None:  # removed since the move: as for any missing game
        raise no_such_game()
    return game_json(found, request.user)
