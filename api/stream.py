"""``GET /api/v1/games/{id}/stream``: a game's events for programs, as newline-delimited JSON.

Each line is a JSON object: ``{"type": "game", ...}`` is the game as the caller's seat sees it
(``v1.game_json``: version, view, legal moves), first the current one (a client that reconnects
starts from the truth), then after every change; ``{"type": "keep-alive"}`` comes when nothing
happened for ``games.stream.KEEP_ALIVE`` seconds, so that a client can tell a dead connection.
It rides on the pages' event stream (``games.stream``), so it needs the ASGI server (`make run`
and production): under WSGI it answers 204. Not in the OpenAPI schema, which has no streams."""

from __future__ import annotations

import json

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import selectors
from games.live import released
from games.models import Game
from games.stream import LIFETIME, game_events

from . import tokens
from .models import Scope
from .v1 import game_json


@released
def _caller(request, user):
    """(user, refusal): the token's user (with the read scope), else the session's."""
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        token = tokens.find(header.removeprefix("Bearer ").strip())
        if token is None:
            return None, ("bad_token", _("This token is not valid: revoked or mistyped."), 401)
        if Scope.READ not in token.scopes:
            return None, (
                "scope",
                _("This token lacks the “%(scope)s” scope.") % {"scope": Scope.READ},
                403,
            )
        return token.user, None
    if user.is_authenticated:
        return user, None
    return None, ("login", _("Send a token (Authorization: Bearer …) or log in."), 401)


@released
def _visible(game_id: int, user) -> bool:
    game = Game.objects.filter(pk=game_id).first()
    return game is not None and selectors.can_view(game, user)


@released
def _game_line(game_id: int, user) -> str:
    game = Game.objects.get(pk=game_id)
    return json.dumps({"type": "game", **game_json(game, user)}) + "\n"


async def game_lines(game_id: int, user, lifetime: float = LIFETIME):
    async for chunk in game_events(game_id, lifetime=lifetime):
        if chunk.startswith(":"):
            yield '{"type": "keep-alive"}\n'
        elif "event: version" in chunk:
            yield await sync_to_async(_game_line)(game_id, user)


@require_GET
async def game_stream(request, game_id: int):
    user, refusal = await sync_to_async(_caller)(request, await request.auser())
    if refusal is not None:
        code, message, status = refusal
        return JsonResponse({"code": code, "message": message}, status=status)
    if not await sync_to_async(_visible)(game_id, user):
        return JsonResponse({"code": "no_game", "message": _("There is no such game.")}, status=404)
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)
    response = StreamingHttpResponse(game_lines(game_id, user), content_type="application/x-ndjson")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response
