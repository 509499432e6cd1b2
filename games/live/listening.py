"""Listening: each web process runs one ``Hub`` (on its event loop), which fans the news of the
games out to the streams open in this process (``games/stream.py``, ``api/stream.py``).

It hears them through Redis pub/sub when ``REDIS_URL`` is set (what ``games.live.announce``
publishes), and besides reads the versions of the games being watched from the database, every
``DB_CHECK`` seconds without Redis (the embedded default of ``make run``: a move made by the
worker reaches the page within that) and every ``DB_SAFETY_CHECK`` seconds with it (pub/sub is
fire-and-forget: a message lost while Redis restarts is found this way). Two queries per check
(versions, latest chat messages), for all the games watched in the process.

Listeners receive ``(kind, number)`` pairs: ``(VERSION, v)``, ``(CHAT, message_id)`` and
``(HERE, when)`` (a page of the game opened or closed: its seats' presence marks may change).
The user whose move made a version, when said (``announce(..., by=)``), is kept beside it
(``Hub.moved_by``): a page's stream does not draw that user the table their move answered.

A stream opened with an API token also hears ``(ACCESS, when)`` when that token may have lost its
rights (revoked, or no longer granting ``read``): each database check asks ``Hub.lost_access``
(set by the API, which owns the tokens: one query for all the tokens of the streams open in the
process), so that without Redis, or with a notice lost, a stream still learns within a check. A
notice only wakes a stream: it checks its token itself (``api/stream.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Iterable

from asgiref.sync import sync_to_async
from django import db
from django.conf import settings
from django.db.models import Max

from games.models import ChatMessage, Game

log = logging.getLogger(__name__)

CHANNEL = "nyet:game:"  # + the game's id; the message is its version
CHAT_CHANNEL = "nyet:chat:"  # + the game's id; the message is its latest chat message's id
HERE_CHANNEL = "nyet:here:"  # + the game's id: a page of it opened or closed (the message: when)
ACCESS_CHANNEL = "nyet:access:"  # + an API token's id: its rights may have changed (when)
VERSION, CHAT, HERE, ACCESS = "version", "chat", "here", "access"
CHANNELS = {VERSION: CHANNEL, CHAT: CHAT_CHANNEL, HERE: HERE_CHANNEL, ACCESS: ACCESS_CHANNEL}
DB_CHECK = 0.2  # seconds, without Redis
DB_SAFETY_CHECK = 2.0  # seconds, with Redis


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
def _versions(game_ids: list[int]) -> tuple[dict[int, int], dict[int, int]]:
    """The games' versions, and their latest chat messages (for those with one)."""
    versions = dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "version"))
    chats = dict(
        ChatMessage.objects.filter(game_id__in=game_ids)
        .values("game_id")
        .annotate(last=Max("pk"))
        .values_list("game_id", "last")
        .order_by()
    )
    return versions, chats


class Hub:
    """The game streams open in this process, and the versions they are told."""

    def __init__(self) -> None:
        self.listeners: dict[int, set[asyncio.Queue]] = defaultdict(set)
        # the queues of the streams opened with each API token (by its id): told of ``ACCESS``
        self.guarded: dict[int, set[asyncio.Queue]] = defaultdict(set)
        # the ids, among those given, of the tokens that no longer let a stream read (the API's)
        self.lost_access: Callable[[list[int]], Iterable[int]] | None = None
        self.tasks: list[asyncio.Task] = []
        self.redis_up = False
        self.loop: asyncio.AbstractEventLoop | None = None
        # each watched game's latest version heard and the user whose move made it (None: a
        # bot, a clock, or heard from the database): that user's page has its table already
        self.movers: dict[int, tuple[int, int | None]] = {}

    @contextlib.asynccontextmanager
    async def listen(
        self, game_id: int, token_id: int | None = None
    ) -> AsyncIterator[asyncio.Queue]:
        """A queue that receives each new ``(kind, number)`` of ``game_id`` (possibly more
        than once, and not in order: the stream keeps the highest of each kind), and the
        ``ACCESS`` notices of the API token ``token_id``, if any."""
        queue: asyncio.Queue = asyncio.Queue()
        self.follow(game_id, queue)
        if token_id is not None:
            self.guard(token_id, queue)
        try:
            yield queue
        finally:
            self.unfollow(game_id, queue)
            if token_id is not None:
                self.unguard(token_id, queue)

    def guard(self, token_id: int, queue: asyncio.Queue) -> None:
        """From now on ``queue`` also receives ``(ACCESS, when)`` when the API token
        ``token_id`` may have lost its rights."""
        self._start()
        self.guarded[token_id].add(queue)

    def unguard(self, token_id: int, queue: asyncio.Queue) -> None:
        self.guarded[token_id].discard(queue)
        if not self.guarded[token_id]:
            del self.guarded[token_id]

    def follow(self, game_id: int, queue: asyncio.Queue) -> None:
        """From now on ``queue`` also receives ``game_id``'s news (one queue may follow several
        games: an account's stream)."""
        self._start()
        self.listeners[game_id].add(queue)

    def unfollow(self, game_id: int, queue: asyncio.Queue) -> None:
        self.listeners[game_id].discard(queue)
        if not self.listeners[game_id]:
            del self.listeners[game_id]
            self.movers.pop(game_id, None)

    def watching(self) -> int:
        return sum(len(queues) for queues in self.listeners.values())

    def tell_here(
        self, game_id: int, version: int, kind: str = VERSION, by: int | None = None
    ) -> None:
        """From any thread of this process: its own open streams hear at once, without waiting
        for Redis or the next database check (a move made by this web process)."""
        loop = self.loop
        heard = self.guarded if kind == ACCESS else self.listeners
        if loop is not None and not loop.is_closed() and game_id in heard:
            loop.call_soon_threadsafe(self._deliver, game_id, version, kind, by)

    def moved_by(self, game_id: int, version: int) -> int | None:
        """The user whose move made ``version`` of ``game_id``, when this hub heard it said."""
        heard = self.movers.get(game_id)
        return heard[1] if heard is not None and heard[0] == version else None

    def _deliver(
        self, game_id: int, number: int, kind: str = VERSION, by: int | None = None
    ) -> None:
        """``game_id``: for ``ACCESS``, the token's id."""
        if kind == VERSION and game_id in self.listeners:
            latest = self.movers.get(game_id, (0, None))[0]
            if number > latest or (number == latest and by is not None):
                self.movers[game_id] = (number, by)
        heard = self.guarded if kind == ACCESS else self.listeners
        for queue in list(heard.get(game_id, ())):
            queue.put_nowait((kind, number))

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
            if self.guarded and self.lost_access is not None:
                try:
                    lost = await sync_to_async(self.lost_access)(list(self.guarded))
                except Exception:
                    log.warning("could not read the tokens of the open streams", exc_info=True)
                    lost = ()
                for token_id in lost:
                    self._deliver(token_id, 0, ACCESS)
            if not self.listeners:
                continue
            try:
                versions = await sync_to_async(_versions)(list(self.listeners))
            except Exception:
                log.warning("could not read the versions of the watched games", exc_info=True)
                continue
            versions, chats = versions
            for game_id, version in versions.items():
                self._deliver(game_id, version)
            for game_id, message_id in chats.items():
                self._deliver(game_id, message_id, CHAT)

    async def _subscribe(self) -> None:
        import redis.asyncio

        while True:
            client = redis.asyncio.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1)
            try:
                async with client.pubsub() as pubsub:
                    patterns = [f"{c}*" for c in CHANNELS.values()]
                    await pubsub.psubscribe(*patterns)
                    confirmed = 0
                    async for message in pubsub.listen():
                        if message["type"] == "psubscribe":
                            # up once Redis has every pattern: a message published after this
                            # reaches the hub, so the database check may slow down
                            confirmed += 1
                            self.redis_up = confirmed >= len(patterns)
                        if message["type"] != "pmessage":
                            continue
                        channel = message["channel"].decode()
                        kind = next(k for k, c in CHANNELS.items() if channel.startswith(c))
                        game_id = int(channel.rsplit(":", 1)[1])
                        number, _, by = message["data"].partition(b":")
                        self._deliver(game_id, int(number), kind, int(by) if by else None)
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
