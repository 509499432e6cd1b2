"""The game's event stream (Server-Sent Events): what an open game page listens to.

It runs on the web process's event loop (an ASGI server: uvicorn), so an open page holds no
thread. It says the game's version and its chat's latest message id: first the current ones (so
a page that reconnects after missing moves catches up at once), then each new one. A seated
player's page is then sent its own seat's table itself (``table``: the fragment the poll would
answer, drawn by ``SeatTable`` from ``view(state, seat)`` for this session's player), without a
request through the whole site for each seat after each move; a spectator's page, and a page
whose table is not the plain fragment (a rematch to follow), fetch theirs (``games/views/``),
as the chat does. A player's own move is answered with their table: their stream does not draw
it again (``Hub.moved_by``). A comment line
every ``KEEP_ALIVE`` seconds lets the browser and the proxies in between tell a live connection
from a dead one. After ``LIFETIME`` the stream
ends and the browser reconnects by itself (EventSource), so that a deployment can drain.

A private game's stream ends as soon as a new version finds that its viewer may no longer see the
game (a seat left, a started game's invite link): the browser's reconnection is then answered
404, and the page stops listening. The API's streams ride on this one (``api/stream.py``): theirs
also hear when their token may have lost its rights (``ACCESS_EVENT``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from concurrent.futures import ThreadPoolExecutor
from importlib import import_module

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import auth
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from accounts.middleware import apply_preferences
from games import lookups, presence, selectors
from games.live import ACCESS, CHAT, HERE, VERSION, hub, released, watcher_token, watchers
from games.models import Game
from games.views.answers import GAME_FRAGMENT

log = logging.getLogger(__name__)

KEEP_ALIVE = 15.0  # seconds
LIFETIME = 300.0  # seconds
RETRY_MS = 1000  # how soon the browser reconnects
ACCESS_EVENT = "event: access\n\n"  # an API stream's token may have lost its rights: check it


@released
def _visibility(game_id: int, user, invite_code: str) -> str | None:
    """The game's visibility if ``user`` may see it, by the game page's rule
    (``selectors.can_view``), for a private game's stream is no one else's business either;
    else None."""
    game = lookups.visible_game(game_id, user, invite_code)
    return game.visibility if game is not None else None


def _visible(game_id: int, user, invite_code: str) -> bool:
    return _visibility(game_id, user, invite_code) is not None


def event(version: int, kind: str = VERSION) -> str:
    if kind == CHAT:
        return f"event: chat\ndata: {version}\n\n"
    return f"id: {version}\nevent: version\ndata: {version}\n\n"


LINE_END = re.compile(r"\r\n|\r|\n")  # what ends a line of an event stream


def table_event(version: int, html: str) -> str:
    """A seat's table, the fragment the page swaps in as if its poll had answered it."""
    lines = "".join(f"data: {line}\n" for line in LINE_END.split(html))
    return f"id: {version}\nevent: table\n{lines}\n"


# One thread a process draws the streams' tables, one after another. In each stream's own
# thread (a request's, for as long as its page stays open), a move at a busy site had dozens
# of drawings at once, each holding a pooled connection while it waited for the interpreter:
# the pages' requests then waited for a connection, seconds on end (the load test's p95 went
# from 0.5 to 19 s). One after another, a drawing that waits finds the moves made meanwhile.
DRAWING = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tables")


class SeatTable:
    """Draws the game's table for the player of one stream, as the poll would answer their
    page: the same selector and template, in their language and time zone, with their form
    tokens. Each drawing first reads the stream's session and its player afresh (two queries,
    what the site's middleware does for a request): a session that has logged out, or whose
    password changed, ends the stream, and a changed preference shows on the next table."""

    def __init__(self, request, user, game_id: int, invite_code: str):
        self.request = request
        self.game_id = game_id
        self.invite_code = invite_code
        self.user_id = user.pk
        self.session_key = request.session.session_key
        # the browser's, unless the player has chosen one when drawing (``apply_preferences``):
        # a choice undone since the page opened no longer holds
        self.language = translation.get_language_from_request(request)
        self.sessions = import_module(settings.SESSION_ENGINE).SessionStore

    @released
    def draw(self) -> tuple[int, str] | None:
        """(version, its table), or (version, "") when the page should fetch its table itself
        (not seated, a rematch to follow); None when the stream may no longer show the game
        to this session."""
        request = self.request
        with translation.override(self.language), timezone.override(None):
            request.session = self.sessions(self.session_key)
            user = auth.get_user(request)
            if user.pk is None or user.pk != self.user_id:
                return None
            request.user = apply_preferences(request, user, record=False)
            context = selectors.game_page(self.game_id, user, self.invite_code)
            if context is None:
                return None
            if self.invite_code:  # the poll's answer keeps it in its links (views.play.game)
                context["invite"] = self.invite_code
            game = context["game"]
            rematch = context.get("rematch")
            if context["me"] is None or (rematch and rematch["new_game_id"]):
                return game.version, ""
            return game.version, render_to_string(GAME_FRAGMENT, context, request).strip()


def here_event(positions: set[int]) -> str:
    """The seats whose player has the game's page open (a JSON list: an event with no data is
    never dispatched)."""
    return f"event: here\ndata: {json.dumps(sorted(positions))}\n\n"


async def game_events(
    game_id: int,
    lifetime: float = LIFETIME,
    watcher: bool = False,
    user_id: int | None = None,
    token_id: int | None = None,
    viewer: tuple | None = None,
    seat_table: SeatTable | None = None,
):
    """The stream's text: the version (and the chat's latest message) now, then each new one,
    and keep-alive comments. A ``watcher`` (an open page, of ``user_id`` when logged in) is
    counted while it lasts; the count leaves out the streams of the players seated when it is
    read (``live.Watchers``), so a spectator who sits down stops counting at once. A watcher's
    stream also says which seats' players have the page open (``here``), when that changes; and
    its user is online (``presence.seen``) while it lasts.

    ``token_id``: an API stream's token, whose ``ACCESS`` notices come as ``ACCESS_EVENT``.
    ``viewer``: ``(user, invite_code)`` of a private game's page, whose right to see the game is
    checked again before each new version is said (one query): the stream ends without it.
    ``seat_table``: a logged-in watcher's, whose new versions come as their table while they
    are seated (``table_event``)."""
    token = watcher_token(user_id)
    if watcher:
        await _off_loop(watchers.came, game_id, token)
        await _off_loop(presence.seen, user_id)
    said = _game_events(
        game_id, lifetime, token if watcher else None, user_id, token_id, viewer, seat_table
    )
    try:
        # closed with this one, in order: its hub queue goes at once, not when collected
        async with contextlib.aclosing(said):
            async for chunk in said:
                yield chunk
    finally:
        if watcher:
            await _off_loop(watchers.left, game_id, token)


async def _off_loop(work, *args):
    """Redis's few milliseconds, in a worker thread rather than on the event loop."""
    await sync_to_async(work, thread_sensitive=False)(*args)


async def _game_events(
    game_id: int,
    lifetime: float,
    watcher: str | None,
    user_id=None,
    token_id: int | None = None,
    viewer: tuple | None = None,
    seat_table: SeatTable | None = None,
):
    # listening before reading: nothing slips by
    async with hub.listen(game_id, token_id) as news:
        sent = await sync_to_async(_current)(game_id)
        first = f"retry: {RETRY_MS}\n" + event(sent[VERSION])
        if sent[CHAT]:
            first += event(sent[CHAT], CHAT)
        seated: dict[int, int] = {}
        if watcher:
            seated, filling = await sync_to_async(_seated)(game_id)
            here = await _here(game_id, seated)
            first += here_event(here)
        yield first
        ends = time.monotonic() + lifetime
        # The hub repeats what a page already has (its database check): only what is sent
        # counts as news, so a quiet game still says something every KEEP_ALIVE seconds.
        quiet_since = said_watching = time.monotonic()
        while (left := ends - time.monotonic()) > 0:
            if watcher and time.monotonic() - said_watching > KEEP_ALIVE:
                await _off_loop(watchers.still, game_id, watcher)
                await _off_loop(presence.seen, user_id)
                said_watching = time.monotonic()
                # a page of another process that died says nothing: its stream expires
                news.put_nowait((HERE, 0))
            until_keep_alive = KEEP_ALIVE - (time.monotonic() - quiet_since)
            try:
                kind, number = await asyncio.wait_for(news.get(), min(until_keep_alive, left))
            except TimeoutError:
                yield ": keep-alive\n\n"
                quiet_since = time.monotonic()
                continue
            if kind == ACCESS:
                yield ACCESS_EVENT  # not news: the keep-alive's time runs on
                continue
            if kind == HERE:
                if watcher and (now := await _here(game_id, seated)) != here:
                    here = now
                    yield here_event(here)
                    quiet_since = time.monotonic()
                continue
            if number > sent[kind]:
                if (
                    kind == VERSION
                    and viewer is not None
                    and not await sync_to_async(_visible)(game_id, *viewer)
                ):
                    return
                said = event(number, kind)
                if (
                    kind == VERSION
                    and seat_table is not None
                    and user_id in seated
                    and hub.moved_by(game_id, number) != user_id
                ):
                    drawn = await _drawn(seat_table, number)
                    if drawn is None:
                        return
                    number = max(number, drawn[0])
                    said = table_event(*drawn) if drawn[1] else event(number)
                sent[kind] = number
                yield said
                quiet_since = time.monotonic()
                if watcher and filling:  # a seat taken or left at a waiting table
                    seated, filling = await sync_to_async(_seated)(game_id)
                    news.put_nowait((HERE, 0))


async def _drawn(seat_table: SeatTable, number: int) -> tuple[int, str] | None:
    """The seat's table as the database is now (moves that came meanwhile are in it); when the
    drawing fails (the database away, a template's fault), only the version, which the page
    fetches its table for: the stream goes on, and the failure is in the log."""
    try:
        return await sync_to_async(seat_table.draw, thread_sensitive=False, executor=DRAWING)()
    except Exception:
        log.warning("could not draw game %s for its stream", seat_table.game_id, exc_info=True)
        return number, ""


@released
def _seated(game_id: int) -> tuple[dict[int, int], bool]:
    """The game's people (user id -> seat; bots have no mark) and whether seats may still
    change (a waiting table)."""
    return lookups.people_seated(game_id), lookups.status_of(game_id) == Game.Status.OPEN


async def _here(game_id: int, seated: dict[int, int]) -> set[int]:
    users = await sync_to_async(watchers.users, thread_sensitive=False)(game_id)
    return presence.positions_here(users, seated)


@released
def _current(game_id: int) -> dict[str, int]:
    return {VERSION: lookups.version_of(game_id), CHAT: lookups.last_chat_message(game_id)}


@require_GET
async def events(request, pk: int):
    user = await request.auser()
    invite_code = request.GET.get("invite", "")[:64]
    visibility = await sync_to_async(_visibility)(pk, user, invite_code)
    if visibility is None:
        raise Http404(_("There is no such game."))
    if not isinstance(request, ASGIRequest):
        # Under a WSGI server an open stream would hold a thread for as long as the page stays
        # open: 204 tells the browser's EventSource to stop, and the page polls instead.
        return HttpResponse(status=204)
    response = StreamingHttpResponse(
        game_events(
            pk,
            watcher=True,
            user_id=user.pk if user.is_authenticated else None,
            viewer=(user, invite_code) if visibility == Game.Visibility.PRIVATE else None,
            seat_table=SeatTable(request, user, pk, invite_code) if user.is_authenticated else None,
        ),
        content_type="text/event-stream",
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
