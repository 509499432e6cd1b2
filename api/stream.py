"""``GET /api/v1/games/{id}/stream``: a game's events for programs, as newline-delimited JSON.

Each line is a JSON object: ``{"type": "game", ...}`` is the game as the caller's seat sees it
(``v1.game_json``: version, view, legal moves), first the current one (a client that reconnects
starts from the truth), then after every change; ``{"type": "keep-alive"}`` comes when nothing
happened for ``games.stream.KEEP_ALIVE`` seconds, so that a client can tell a dead connection.
``GET /api/v1/stream``: the account's events, also as newline-delimited JSON: ``gameStart``
(a game of mine is in play), ``yourTurn`` (my seat's turn began: game and version),
``gameOver`` (a game of mine ended: finished or aborted) and ``invitation`` (someone asked me to
a table). First what holds now (my games in play, my turns, my invitations to open tables) and a
keep-alive line, so that a client that reconnects starts from the truth and knows when it has it;
then each change, and keep-alive lines.

Both ride on the pages' event stream (``games.live``), so they need the ASGI server (`make run`
and production): under WSGI they answer 204. Not in the OpenAPI schema, which has no streams."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db.models import Q
from django.http import HttpResponse, JsonResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET

from games import selectors
from games import stream as page_stream
from games.live import VERSION, hub, released
from games.models import Game, Invitation, Seat
from games.stream import LIFETIME, game_events

from . import v1
from .models import Scope

ACCOUNT_CHECK = 2.0  # seconds: how often an account's stream looks for new tables and invitations


@released
def _caller(request, user):
    """The token's user (it needs the read scope), else the session's: as the rest of the API
    (``v1.BearerToken``, ``v1.need``), and counted against the same limits."""
    if request.headers.get("Authorization"):
        if not v1.BearerToken()(request):
            raise v1.bad_token()
    elif user.is_authenticated:
        request.user = user
    else:
        raise v1.not_logged_in()
    v1.need(request, Scope.READ)
    return request.user


def _refused(error: v1.Refusal) -> JsonResponse:
    response = JsonResponse({"code": error.code, "message": error.message}, status=error.status)
    for name, value in error.headers.items():
        response[name] = value
    return response


def _streaming(lines) -> StreamingHttpResponse:
    response = StreamingHttpResponse(lines, content_type="application/x-ndjson")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


def _line(event: dict) -> str:
    return json.dumps(event) + "\n"


KEEP_ALIVE_LINE = _line({"type": "keep-alive"})


# --- a game's stream ----------------------------------------------------------------------------


@released
def _visible(game_id: int, user) -> bool:
    game = Game.objects.filter(pk=game_id).first()
    return game is not None and selectors.can_view(game, user)


@released
def _game_line(game_id: int, user) -> str:
    game = Game.objects.get(pk=game_id)
    return _line({"type": "game", **v1.game_json(game, user)})


async def game_lines(game_id: int, user, lifetime: float = LIFETIME):
    async for chunk in game_events(game_id, lifetime=lifetime):
        if chunk.startswith(":"):
            yield KEEP_ALIVE_LINE
        elif "event: version" in chunk:
            yield await sync_to_async(_game_line)(game_id, user)


@require_GET
async def game_stream(request, game_id: int):
    try:
        user = await sync_to_async(_caller)(request, await request.auser())
    except v1.Refusal as error:
        return _refused(error)
    if not await sync_to_async(_visible)(game_id, user):
        return _refused(v1.no_such_game())
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)
    return _streaming(game_lines(game_id, user))


# --- an account's stream ------------------------------------------------------------------------


@dataclass(frozen=True)
class Account:
    """What an account's events are read from: its seats' games (status, version, and since
    when the seat must act, if it must) and its invitations to open tables."""

    games: dict[int, tuple[str, int, object]]  # game id: (status, version, acting_since)
    invitations: dict[int, tuple[int, str]]  # invitation id: (game id, inviter's username)

    def in_play(self) -> set[int]:
        return {
            game_id
            for game_id, (status, _v, _a) in self.games.items()
            if status == Game.Status.ACTIVE
        }

    def followed(self) -> set[int]:
        """The games whose moves may change what the account is told."""
        return {
            game_id
            for game_id, (status, _v, _a) in self.games.items()
            if status in (Game.Status.OPEN, Game.Status.ACTIVE)
        }


@released
def _account(user_id: int, in_play: set[int]) -> Account:
    """Two queries. ``in_play``: the games last seen in play, whose end is news."""
    seats = Seat.objects.filter(user_id=user_id).filter(
        Q(game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE]) | Q(game_id__in=in_play)
    )
    invitations = (
        Invitation.objects.filter(invitee_id=user_id, game__status=Game.Status.OPEN)
        .exclude(game__seats__user_id=user_id)
        .order_by("pk")
    )
    return Account(
        games={
            game_id: (status, version, acting_since)
            for game_id, status, version, acting_since in seats.values_list(
                "game_id", "game__status", "game__version", "acting_since"
            )
        },
        invitations={
            pk: (game_id, inviter or "")
            for pk, game_id, inviter in invitations.values_list(
                "pk", "game_id", "inviter__username"
            )
        },
    )


def account_news(before: Account | None, now: Account) -> list[dict]:
    """The events that take a client from ``before`` (None: a client that knows nothing yet)
    to ``now``."""
    events = []
    for game_id, (status, version, acting_since) in sorted(now.games.items()):
        was_status, _was_version, was_acting = (
            before.games.get(game_id, (None, None, None)) if before else (None, None, None)
        )
        if status == Game.Status.ACTIVE:
            if was_status != Game.Status.ACTIVE:
                events.append({"type": "gameStart", "game": game_id})
            if acting_since is not None and acting_since != was_acting:
                events.append({"type": "yourTurn", "game": game_id, "version": version})
        elif was_status == Game.Status.ACTIVE:
            events.append({"type": "gameOver", "game": game_id, "status": status})
    for pk, (game_id, inviter) in sorted(now.invitations.items()):
        if before is None or pk not in before.invitations:
            events.append({"type": "invitation", "game": game_id, "from": inviter})
    return events


class _Tagged:
    """A queue's door for one game: the hub puts ``(kind, number)``, the account's stream
    receives ``(game id, kind, number)``."""

    def __init__(self, game_id: int, queue: asyncio.Queue) -> None:
        self.game_id, self.queue = game_id, queue

    def put_nowait(self, item) -> None:
        self.queue.put_nowait((self.game_id, *item))


async def account_lines(user_id: int, lifetime: float = LIFETIME):
    queue: asyncio.Queue = asyncio.Queue()
    doors: dict[int, _Tagged] = {}
    known = None
    ends = time.monotonic() + lifetime
    said = time.monotonic()
    try:
        while time.monotonic() < ends:
            now = await sync_to_async(_account)(user_id, known.in_play() if known else set())
            for game_id in now.followed() - doors.keys():
                doors[game_id] = _Tagged(game_id, queue)
                hub.follow(game_id, doors[game_id])
            for game_id in doors.keys() - now.followed():
                hub.unfollow(game_id, doors.pop(game_id))
            events = account_news(known, now)
            first = known is None
            known, checked = now, time.monotonic()
            if events or first:
                # The first lines (what holds) end with a keep-alive: a client knows it has
                # caught up, even when there was nothing to say.
                yield "".join(_line(event) for event in events) + (KEEP_ALIVE_LINE if first else "")
                said = time.monotonic()
            # Wait for a followed game to move past what is known, or for the next check;
            # say something every KEEP_ALIVE seconds meanwhile.
            while (left := min(ends, checked + ACCOUNT_CHECK) - time.monotonic()) > 0:
                try:
                    game_id, kind, number = await asyncio.wait_for(
                        queue.get(), min(left, said + page_stream.KEEP_ALIVE - time.monotonic())
                    )
                except TimeoutError:
                    if time.monotonic() - said >= page_stream.KEEP_ALIVE:
                        yield KEEP_ALIVE_LINE
                        said = time.monotonic()
                    continue
                if kind == VERSION and number > known.games.get(game_id, ("", 0, None))[1]:
                    break
    finally:
        for game_id, door in doors.items():
            hub.unfollow(game_id, door)


@require_GET
async def account_stream(request):
    try:
        user = await sync_to_async(_caller)(request, await request.auser())
    except v1.Refusal as error:
        return _refused(error)
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)
    return _streaming(account_lines(user.pk))
