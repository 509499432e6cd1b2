"""Who may call what, and the refusals: a request with ``Authorization`` is judged by its
token alone (``BearerToken``); a token must carry the route's scope and every call counts
against the caller's limits (``need``, ``counted``); a game that is not the caller's to see is
answered as a missing one (``visible_game``). Each refusal is a ``Refusal``, which ``v1`` (and
``stream``, for the streams) answers as ``{"code": ..., "message": ...}``."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja.errors import AuthenticationError
from ninja.security import HttpBearer

from games import limits, lookups
from games.actions.errors import RateLimited
from games.models import Game

from . import tokens
from .models import ApiToken, Scope


class BearerToken(HttpBearer):
    """A request that sends ``Authorization`` is judged by its token alone, before the site's
    session and its CSRF check (``django_auth``) are tried: a missing, wrong or revoked token is
    401 ``bad_token``, whatever the method."""

    def __call__(self, request: HttpRequest) -> ApiToken | None:
        if not request.headers.get(self.header):
            return None
        found: ApiToken | None = super().__call__(request)
        if not found:
            raise AuthenticationError
        return found

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        found = tokens.find(token)
        if found is None:
            return None
        request.user = found.user
        request.api_token = found
        return found


class Refusal(Exception):
    def __init__(self, status: int, code: str, message: str, **headers: str) -> None:
        self.status, self.code, self.message, self.headers = status, code, message, headers


def bad_token() -> Refusal:
    return Refusal(401, "bad_token", _("This token is not valid: revoked or mistyped."))


def not_logged_in() -> Refusal:
    return Refusal(401, "login", _("Send a token (Authorization: Bearer …) or log in."))


def need(request: HttpRequest, scope: str) -> None:
    """A token must carry ``scope`` (a ``bot`` token may also read and play, as lichess's
    bot:play does); the site's own session may read and play. Every call counts against the
    caller's token (``limits.RATES["api"]``)."""
    token = getattr(request, "api_token", None)
    granted = set(token.scopes) if token is not None else set()
    if Scope.BOT in granted:
        granted |= {Scope.READ, Scope.PLAY}
    if token is not None and scope not in granted:
        raise Refusal(403, "scope", _("This token lacks the “%(scope)s” scope.") % {"scope": scope})
    counted(request, "api")


def counted(request: HttpRequest, group: str) -> None:
    try:
        limits.hit(request, group)
    except RateLimited as error:
        raise Refusal(
            429, error.code, error.message, **{"Retry-After": str(error.retry_after)}
        ) from error


def no_such_game() -> Refusal:
    return Refusal(404, "no_game", _("There is no such game."))


def visible_game(request: HttpRequest, game_id: int, invite_code: str = "") -> Game:
    """The game, unless it is not this caller's to see: then exactly a missing game's answer,
    so that ids reveal nothing (``selectors.can_view``)."""
    game = lookups.visible_game(game_id, request.user, invite_code)
    if game is None:
        raise no_such_game()
    return game
