"""``GET /api/v1/games/{id}/stream``: a game's events for programs, as newline-delimited JSON.

Each line is a JSON object: ``{"type": "game", ...}`` is the game as the caller's seat sees it
(``presenters.game_json``: version, view, legal moves), first the current one (a client that
reconnects starts from the truth), then after every change; ``{"type": "keep-alive"}`` comes
when nothing happened for ``games.stream.KEEP_ALIVE`` seconds, so that a client can tell a dead
connection.
``GET /api/v1/stream``: the account's events, also as newline-delimited JSON: ``gameStart``
(a game of mine is in play), ``yourTurn`` (my seat's turn began: game and version),
``gameOver`` (a game of mine ended: finished or aborted), ``invitation`` (to a table, to me or
from me: id, game, from, to) and ``invitationGone`` (accepted, declined, cancelled, or the table
started or went), ``rematchOffer`` (someone asks me for a rematch of a finished game) and
``rematchGone`` (an offer I knew ended: its new game, or null). First what holds now (my games in
play, my turns, my invitations to open tables, the offers I have to answer) and a keep-alive
line, so that a client that reconnects starts from the truth and knows when it has it;
then each change, and keep-alive lines.

Both ride on the pages' event stream (``games.live``), so they need the ASGI server (`make run`
and production): under WSGI they answer 204. In openapi.json each event's schema is in
``api.schemas.events``, added to the document by its ``with_streams``.

Neither outlives the caller's right to it. Before every line and keep-alive a stream checks its
token again (one query by the token's key: not revoked, its account active, granting ``read``;
no rate limit counted) and, for a game, that the game is still the caller's to see; and it does
not wait for its next line to learn of a change: a revoked token's streams are told on commit in
every web process (``live.announce_access_on_commit``, through Redis), and each hub's database
check also looks at the tokens of its open streams (one query for all, every ``listening.DB_CHECK``
seconds without Redis, every ``DB_SAFETY_CHECK`` with it, for a notice lost). A seat change
moves the game's version, which the game's stream hears at once. The stream then ends with a last
line ``{"type": "end", "reason": ...}``: ``"revoked"`` (the token was revoked, or its account
closed), ``"scope"`` (the token no longer grants ``read``) or ``"seat"`` (a game's stream only:
the seat it has shown the game from was lost, e.g. a bot account removed from a table, or the
game is no longer the caller's to see, e.g. a private game's seat left)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, cast

from asgiref.sync import sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET
from ninja.errors import AuthenticationError

from accounts.models import User
from games import lookups, selectors
from games import stream as page_stream
from games.live import ACCESS, VERSION, hub, released
from games.models import Game, RematchOffer
from games.stream import LIFETIME, game_events

from . import access, presenters, tokens
from .models import Scope

ACCOUNT_CHECK = 2.0  # seconds: how often an account's stream looks for new tables and invitations


hub.lost_access = released(tokens.lost_read)  # each database check: the streams' tokens


@released
def _caller(request: HttpRequest, user: User | AnonymousUser) -> tuple[User, int | None]:
    """The token's user (it needs the read scope) and the token's id, else the session's user
    and None: as the rest of the API (``access.BearerToken``, ``access.need``), and counted
    against the same limits."""
    if request.headers.get("Authorization"):
        try:
            found = access.BearerToken()(request)
        except AuthenticationError:  # a token that is not one
            found = None
        if not found:
            raise access.bad_token()
    elif user.is_authenticated:
        request.user = user
    else:
        raise access.not_logged_in()
    access.need(request, Scope.READ)
    token = getattr(request, "api_token", None)
    return request.user, token.pk if token is not None else None


def _token_refused(token_id: int | None) -> str | None:
    """Why the stream's token no longer lets it read, or None (a session's stream: None)."""
    return tokens.read_refused(token_id) if token_id is not None else None


_token_check = released(_token_refused)


def _end(reason: str) -> str:
    return _line({"type": "end", "reason": reason})


def _refused(error: access.Refusal) -> JsonResponse:
    response = JsonResponse({"code": error.code, "message": error.message}, status=error.status)
    for name, value in error.headers.items():
        response[name] = value
    return response


def _streaming(lines: AsyncIterator[str]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(lines, content_type="application/x-ndjson")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


def _line(event: dict[str, object]) -> str:
    return json.dumps(event) + "\n"


KEEP_ALIVE_LINE = _line({"type": "keep-alive"})


# --- a game's stream ----------------------------------------------------------------------------


@released
def _visible(game_id: int, user: User) -> bool:
    return lookups.visible_game(game_id, user) is not None


def _lost_game(game: Game | None, user: User, seat: int | None, seated: bool) -> bool:
    """Whether the game is no longer the stream's: gone, its seat lost (``seated``: the stream
    has shown it from a seat), or not the caller's to see (a spectator: one query for a private
    game, none for a public one)."""
    if game is None or (seated and seat is None):
        return True
    return seat is None and not selectors.can_view(game, user)


@released
def _game_line(game_id: int, user: User, token_id: int | None, seated: bool) -> tuple[str, bool]:
    """The game's line, or the end line if the stream may no longer say it; and whether it was
    said from a seat. The token's query, then the line's own."""
    if reason := _token_refused(token_id):
        return _end(reason), seated
    game = lookups.game(game_id)
    data: presenters.GameJson | dict[str, Any] = (
        presenters.game_json(game, user) if game is not None else {"my_seat": None}
    )
    if _lost_game(game, user, data["my_seat"], seated):
        return _end("seat"), seated
    return _line({"type": "game", **data}), data["my_seat"] is not None


@released
def _must_end(game_id: int, user: User, token_id: int | None, seated: bool) -> str | None:
    """Why the game's stream must end now (``_end``'s reason), or None."""
    if reason := _token_refused(token_id):
        return reason
    game = lookups.game(game_id)
    seat = presenters.my_seat(game, user) if game is not None and seated else None
    return "seat" if _lost_game(game, user, seat, seated) else None


async def game_lines(
    game_id: int, user: User, lifetime: float = LIFETIME, token_id: int | None = None
) -> AsyncIterator[str]:
    """The game's lines for ``user`` (through ``token_id``, if not a session), until the stream
    may no longer say them (then an end line)."""
    seated = False
    async for chunk in game_events(game_id, lifetime=lifetime, token_id=token_id):
        if chunk == page_stream.ACCESS_EVENT or chunk.startswith(":"):
            if reason := await sync_to_async(_must_end)(game_id, user, token_id, seated):
                yield _end(reason)
                return
            if chunk.startswith(":"):
                yield KEEP_ALIVE_LINE
        elif "event: version" in chunk:
            line, seated = await sync_to_async(_game_line)(game_id, user, token_id, seated)
            yield line
            if line.startswith('{"type": "end"'):
                return


@require_GET
async def game_stream(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        user, token_id = await sync_to_async(_caller)(request, await request.auser())
    except access.Refusal as error:
        return _refused(error)
    if not await sync_to_async(_visible)(game_id, user):
        return _refused(access.no_such_game())
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)
    return _streaming(game_lines(game_id, user, token_id=token_id))


# --- an account's stream ------------------------------------------------------------------------


@dataclass(frozen=True)
class Account:
    """What an account's events are read from: its seats' games (status, version, and since
    when the seat must act, if it must), its invitations waiting for an answer to open tables
    (to it and from it), and the rematch offers of its finished games (open, or last seen
    open)."""

    games: dict[int, tuple[str, int, object]]  # game id: (status, version, acting_since)
    # invitation id: (game id, inviter's username, invitee's username)
    invitations: dict[int, tuple[int, str, str]]
    # offer id: (finished game id, outcome, asker's username, new game id, mine to answer)
    rematches: dict[int, tuple[int, str, str, int | None, bool]] = field(default_factory=dict)

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

    def open_offers(self) -> set[int]:
        return {
            pk
            for pk, (_g, outcome, _a, _n, _m) in self.rematches.items()
            if outcome == RematchOffer.Outcome.OPEN
        }


@released
def _account(user_id: int, known: Account | None) -> Account:
    """Three queries, however many games. ``known``: what was read last time (its games in
    play and its open rematch offers: their end is news)."""
    in_play, offers = (known.in_play(), known.open_offers()) if known else (set(), set())
    return Account(
        games={
            game_id: (status, version, acting_since)
            for game_id, status, version, acting_since in lookups.seated_games(user_id, in_play)
        },
        invitations={
            pk: (game_id, inviter or "", invitee)
            for pk, game_id, inviter, invitee in lookups.open_invitations(user_id)
        },
        rematches={
            pk: (game_id, outcome, asker or "", new_game, user_id not in accepted)
            for pk, game_id, outcome, asker, new_game, accepted in lookups.rematch_offers(
                user_id, offers
            )
        },
    )


def account_news(before: Account | None, now: Account) -> list[dict[str, object]]:
    """The events that take a client from ``before`` (None: a client that knows nothing yet)
    to ``now``."""
    events: list[dict[str, object]] = []
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
    known_invitations = before.invitations if before else {}
    for pk, (game_id, _inviter, _invitee) in sorted(known_invitations.items()):
        if pk not in now.invitations:  # accepted, declined, cancelled; the table started or went
            events.append({"type": "invitationGone", "id": pk, "game": game_id})
    for pk, (game_id, inviter, invitee) in sorted(now.invitations.items()):
        if pk not in known_invitations:
            events.append(
                {"type": "invitation", "id": pk, "game": game_id, "from": inviter, "to": invitee}
            )
    known_offers = before.rematches if before else {}
    for pk, (game_id, outcome, asker, new_game, to_answer) in sorted(now.rematches.items()):
        if outcome == RematchOffer.Outcome.OPEN:
            if to_answer and pk not in known_offers:
                events.append({"type": "rematchOffer", "game": game_id, "offer": pk, "from": asker})
        elif known_offers.get(pk, (0, ""))[1] == RematchOffer.Outcome.OPEN:
            events.append(
                {"type": "rematchGone", "game": game_id, "offer": pk, "new_game": new_game}
            )
    for pk, (game_id, outcome, *_rest) in sorted(known_offers.items()):
        if outcome == RematchOffer.Outcome.OPEN and pk not in now.rematches:  # its game is gone
            events.append({"type": "rematchGone", "game": game_id, "offer": pk, "new_game": None})
    return events


# What the account's stream receives from its games' doors: (game id, kind, number).
Notice = tuple[int, str, float]


class _Tagged:
    """A queue's door for one game: the hub puts ``(kind, number)``, the account's stream
    receives ``(game id, kind, number)``."""

    def __init__(self, game_id: int, queue: asyncio.Queue[Notice]) -> None:
        self.game_id, self.queue = game_id, queue

    def put_nowait(self, item: tuple[str, float]) -> None:
        self.queue.put_nowait((self.game_id, *item))


def _door(game_id: int, queue: asyncio.Queue[Notice]) -> asyncio.Queue[tuple[str, float]]:
    """A door, as the hub types what it is given: it only ever calls ``put_nowait``."""
    return cast("asyncio.Queue[tuple[str, float]]", _Tagged(game_id, queue))


async def account_lines(
    user_id: int, lifetime: float = LIFETIME, token_id: int | None = None
) -> AsyncIterator[str]:
    """The account's lines (read through ``token_id``, if not a session), until the token no
    longer lets the stream read (then an end line)."""
    queue: asyncio.Queue[Notice] = asyncio.Queue()
    doors: dict[int, asyncio.Queue[tuple[str, float]]] = {}
    guard = _door(0, queue)  # the token's ACCESS notices, as (0, ACCESS, when)
    if token_id is not None:
        hub.guard(token_id, guard)
    known = None
    ends = time.monotonic() + lifetime
    said = time.monotonic()
    try:
        while time.monotonic() < ends:
            now = await sync_to_async(_account)(user_id, known)
            for game_id in now.followed() - doors.keys():
                doors[game_id] = _door(game_id, queue)
                hub.follow(game_id, doors[game_id])
            for game_id in doors.keys() - now.followed():
                hub.unfollow(game_id, doors.pop(game_id))
            events = account_news(known, now)
            first = known is None
            known, checked = now, time.monotonic()
            if (events or first) and (reason := await sync_to_async(_token_check)(token_id)):
                yield _end(reason)
                return
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
                        if reason := await sync_to_async(_token_check)(token_id):
                            yield _end(reason)
                            return
                        yield KEEP_ALIVE_LINE
                        said = time.monotonic()
                    continue
                if kind == ACCESS:
                    if reason := await sync_to_async(_token_check)(token_id):
                        yield _end(reason)
                        return
                    continue
                if kind == VERSION and number > known.games.get(game_id, ("", 0, None))[1]:
                    break
    finally:
        for game_id, door in doors.items():
            hub.unfollow(game_id, door)
        if token_id is not None:
            hub.unguard(token_id, guard)


@require_GET
async def account_stream(request: HttpRequest) -> HttpResponse:
    try:
        user, token_id = await sync_to_async(_caller)(request, await request.auser())
    except access.Refusal as error:
        return _refused(error)
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)
    return _streaming(account_lines(user.pk, token_id=token_id))
