"""The game's event stream (Server-Sent Events): what an open game page listens to.

It runs on the web process's event loop (an ASGI server: uvicorn), so an open page holds no
thread. It says only the game's version and its chat's latest message id: first the current
ones (so a page that reconnects after missing moves catches up at once), then each new one; the
page then fetches its own seat's fragment, or its chat (``games/views.py``). A comment line
every ``KEEP_ALIVE`` seconds lets the browser and the proxies in between tell a live connection
from a dead one. After ``LIFETIME`` the stream
ends and the browser reconnects by itself (EventSource), so that a deployment can drain.
"""

from __future__ import annotations

import asyncio
import time

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db.models import Max
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.live import CHAT, VERSION, hub, released, watcher_token, watchers
from games.models import ChatMessage, Game
from games.selectors import can_view

KEEP_ALIVE = 15.0  # seconds
LIFETIME = 300.0  # seconds
RETRY_MS = 1000  # how soon the browser reconnects


@released
def _visible(game_id: int, user, invite_code: str) -> bool:
    """The game page's rule (``selectors.can_view``), for a private game's stream is no one
    else's business either."""
    game = Game.objects.filter(pk=game_id).first()
    return game is not None and can_view(game, user, invite_code)


def event(version: int, kind: str = VERSION) -> str:
    if kind == CHAT:
        return f"event: chat\ndata: {version}\n\n"
    return f"id: {version}\nevent: version\ndata: {version}\n\n"


async def game_events(
    game_id: int, lifetime: float = LIFETIME, watcher: bool = False, user_id: int | None = None
):
    """The stream's text: the version (and the chat's latest message) now, then each new one,
    and keep-alive comments. A ``watcher`` (an open page, of ``user_id`` when logged in) is
    counted while it lasts; the count leaves out the streams of the players seated when it is
    read (``live.Watchers``), so a spectator who sits down stops counting at once."""
    token = watcher_token(user_id)
    if watcher:
        await _off_loop(watchers.came, game_id, token)
    try:
        async for chunk in _game_events(game_id, lifetime, token if watcher else None):
            yield chunk
    finally:
        if watcher:
            await _off_loop(watchers.left, game_id, token)


async def _off_loop(work, *args):
    """Redis's few milliseconds, in a worker thread rather than on the event loop."""
    await sync_to_async(work, thread_sensitive=False)(*args)


async def _game_events(game_id: int, lifetime: float, watcher: str | None):
    async with hub.listen(game_id) as news:  # listening before reading: nothing slips by
        sent = await sync_to_async(_current)(game_id)
        first = f"retry: {RETRY_MS}\n" + event(sent[VERSION])
        if sent[CHAT]:
            first += event(sent[CHAT], CHAT)
        yield first
        ends = time.monotonic() + lifetime
        # The hub repeats what a page already has (its database check): only what is sent
        # counts as news, so a quiet game still says something every KEEP_ALIVE seconds.
        quiet_since = said_watching = time.monotonic()
        while (left := ends - time.monotonic()) > 0:
            if watcher and time.monotonic() - said_watching > KEEP_ALIVE:
                await _off_loop(watchers.still, game_id, watcher)
                said_watching = time.monotonic()
            until_keep_alive = KEEP_ALIVE - (time.monotonic() - quiet_since)
            try:
                kind, number = await asyncio.wait_for(news.get(), min(until_keep_alive, left))
            except TimeoutError:
                yield ": keep-alive\n\n"
                quiet_since = time.monotonic()
                continue
            if number > sent[kind]:
                sent[kind] = number
                yield event(number, kind)
                quiet_since = time.monotonic()


@released
def _current(game_id: int) -> dict[str, int]:
    version = Game.objects.filter(pk=game_id).values_list("version", flat=True).first() or 0
    chat = ChatMessage.objects.filter(game_id=game_id).aggregate(last=Max("pk"))["last"] or 0
    return {VERSION: version, CHAT: chat}


@require_GET
async def events(request, pk: int):
    user = await request.auser()
    invite_code = request.GET.get("invite", "")[:64]
    if not await sync_to_async(_visible)(pk, user, invite_code):
        raise Http404(_("There is no such game."))
    if not isinstance(request, ASGIRequest):
        # Under a WSGI server an open stream would hold a thread for as long as the page stays
        # open: 204 tells the browser's EventSource to stop, and the page polls instead.
        return HttpResponse(status=204)
    response = StreamingHttpResponse(
        game_events(pk, watcher=True, user_id=user.pk if user.is_authenticated else None),
        content_type="text/event-stream",
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
