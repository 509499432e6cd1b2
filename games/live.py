"""Live push: every open game page hears at once that its game has moved.

An event says only "game N is at version V". Each page then fetches its own seat's fragment, so
hidden information still goes only through ``view(state, seat)`` (games/selectors.py).

- A change announces its new version after it commits (``announce_on_commit``): through Redis
  pub/sub when ``REDIS_URL`` is set.
- Each web process runs one ``Hub`` (on its event loop): it fans the versions out to the game
  streams open in this process (``games/stream.py``). Besides Redis, it reads the versions of the
  games being watched from the database, every ``DB_CHECK`` seconds without Redis (the embedded
  default of ``make run``: a move made by the worker reaches the page within that) and every
  ``DB_SAFETY_CHECK`` seconds with it (pub/sub is fire-and-forget: a message lost while Redis
  restarts is found this way). One query per check, for all the games watched in the process.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections import defaultdict
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django import db
from django.conf import settings
from django.db import transaction

from games.models import Game

log = logging.getLogger(__name__)

CHANNEL = "nyet:game:"  # + the game's id; the message is its version
DB_CHECK = 0.2  # seconds, without Redis
DB_SAFETY_CHECK = 2.0  # seconds, with Redis
PUBLISH_RETRY_AFTER = 10.0  # seconds without publishing after Redis failed


# --- announcing ---------------------------------------------------------------------------------

_redis = None
_redis_down_until = 0.0


def _client():
    global _redis
    if _redis is None:
        import redis

        _redis = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=0.25, socket_timeout=0.5
        )
    return _redis


def announce(game_id: int, version: int) -> None:
    """Tell the open pages of ``game_id`` that it is at ``version`` (now)."""
    global _redis_down_until
    hub.tell_here(game_id, version)
    if not settings.REDIS_URL or time.monotonic() < _redis_down_until:
        return  # the hubs read it from the database
    try:
        _client().publish(f"{CHANNEL}{game_id}", version)
    except Exception:
        _redis_down_until = time.monotonic() + PUBLISH_RETRY_AFTER
        log.warning("could not announce game %s at version %s", game_id, version, exc_info=True)


def announce_on_commit(game) -> None:
    """``announce`` the game's version once the change that set it has committed."""
    game_id, version = game.pk, game.version
    transaction.on_commit(lambda: announce(game_id, version))


# --- listening ----------------------------------------------------------------------------------


def released(read):
    """``read``, which then gives its thread's database connection back (to the pool, or closed).
    Streams and the hub read the database now and then for minutes on end: a connection held
    between reads is one the pages cannot have (ten open pages emptied a pool of ten)."""

    @functools.wraps(read)
    def run(*args):
        try:
            return read(*args)
        finally:
            # Only a pooled server database needs it back; never under someone's transaction,
            # and never SQLite's (no pool; closing a test's database loses it).
            if db.connection.vendor != "sqlite" and not db.connection.in_atomic_block:
                db.connection.close()

    return run


@released
def _versions(game_ids: list[int]) -> dict[int, int]:
    return dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "version"))


class Hub:
    """The game streams open in this process, and the versions they are told."""

    def __init__(self) -> None:
        self.listeners: dict[int, set[asyncio.Queue]] = defaultdict(set)
        self.tasks: list[asyncio.Task] = []
        self.redis_up = False
        self.loop: asyncio.AbstractEventLoop | None = None

    @contextlib.asynccontextmanager
    async def listen(self, game_id: int) -> AsyncIterator[asyncio.Queue]:
        """A queue that receives each new version of ``game_id`` (possibly more than once,
        and not in order: the stream keeps the highest)."""
        self._start()
        queue: asyncio.Queue = asyncio.Queue()
        self.listeners[game_id].add(queue)
        try:
            yield queue
        finally:
            self.listeners[game_id].discard(queue)
            if not self.listeners[game_id]:
                del self.listeners[game_id]

    def watching(self) -> int:
        return sum(len(queues) for queues in self.listeners.values())

    def tell_here(self, game_id: int, version: int) -> None:
        """From any thread of this process: its own open streams hear at once, without waiting
        for Redis or the next database check (a move made by this web process)."""
        loop = self.loop
        if loop is not None and not loop.is_closed() and game_id in self.listeners:
            loop.call_soon_threadsafe(self._deliver, game_id, version)

    def _deliver(self, game_id: int, version: int) -> None:
        for queue in self.listeners.get(game_id, ()):
            queue.put_nowait(version)

    def _start(self) -> None:
        loop = asyncio.get_running_loop()
        if self.loop is loop and all(not t.done() for t in self.tasks):
            return
        self.loop = loop
        self.tasks = [loop.create_task(self._check_database())]
        if settings.REDIS_URL:
            self.tasks.append(loop.create_task(self._subscribe()))

    async def _check_database(self) -> None:
        while True:
            await asyncio.sleep(DB_SAFETY_CHECK if self.redis_up else DB_CHECK)
            if not self.listeners:
                continue
            try:
                versions = await sync_to_async(_versions)(list(self.listeners))
            except Exception:
                log.warning("could not read the versions of the watched games", exc_info=True)
                continue
            for game_id, version in versions.items():
                self._deliver(game_id, version)

    async def _subscribe(self) -> None:
        import redis.asyncio

        while True:
            client = redis.asyncio.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.psubscribe(f"{CHANNEL}*")
                    self.redis_up = True
                    async for message in pubsub.listen():
                        if message["type"] != "pmessage":
                            continue
                        game_id = int(message["channel"].decode()[len(CHANNEL) :])
                        self._deliver(game_id, int(message["data"]))
            except asyncio.CancelledError:
                raise
            except Exception:
                if self.redis_up:
                    log.warning("lost the Redis subscription: reading the database meanwhile")
                self.redis_up = False
                await asyncio.sleep(1)
            finally:
                self.redis_up = False
                with contextlib.suppress(Exception):
                    await client.aclose()


hub = Hub()
