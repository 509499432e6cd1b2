"""Live push: every open game page hears at once that its game has moved, or that its table
chat has a new message.

An event says only "game N is at version V" (or "game N's chat is at message M"). Each page then
fetches its own seat's fragment (or its chat), so hidden information still goes only through
``view(state, seat)`` (games/selectors.py), and chat only to the table's players.

- A change announces its new version after it commits (``announce_on_commit``): through Redis
  pub/sub when ``REDIS_URL`` is set.
- Each web process runs one ``Hub`` (on its event loop): it fans the versions out to the game
  streams open in this process (``games/stream.py``). Besides Redis, it reads the versions of the
  games being watched from the database, every ``DB_CHECK`` seconds without Redis (the embedded
  default of ``make run``: a move made by the worker reaches the page within that) and every
  ``DB_SAFETY_CHECK`` seconds with it (pub/sub is fire-and-forget: a message lost while Redis
  restarts is found this way). Two queries per check (versions, latest chat messages), for all
  the games watched in the process.

Listeners receive ``(kind, number)`` pairs: ``(VERSION, v)`` and ``(CHAT, message_id)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
import uuid
from collections import defaultdict
from collections.abc import AsyncIterator, Iterable

from asgiref.sync import sync_to_async
from django import db
from django.conf import settings
from django.db import transaction
from django.db.models import Max

from games.models import ChatMessage, Game

log = logging.getLogger(__name__)

CHANNEL = "nyet:game:"  # + the game's id; the message is its version
CHAT_CHANNEL = "nyet:chat:"  # + the game's id; the message is its latest chat message's id
VERSION, CHAT = "version", "chat"
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


def announce(game_id: int, version: int, kind: str = VERSION) -> None:
    """Tell the open pages of ``game_id`` that it is at ``version`` (now); for ``CHAT``, that
    its chat's latest message is ``version``."""
    global _redis_down_until
    hub.tell_here(game_id, version, kind)
    if not settings.REDIS_URL or time.monotonic() < _redis_down_until:
        return  # the hubs read it from the database
    channel = CHAT_CHANNEL if kind == CHAT else CHANNEL
    try:
        _client().publish(f"{channel}{game_id}", version)
    except Exception:
        _redis_down_until = time.monotonic() + PUBLISH_RETRY_AFTER
        log.warning("could not announce game %s at %s %s", game_id, kind, version, exc_info=True)


def announce_chat(game_id: int, message_id: int) -> None:
    announce(game_id, message_id, CHAT)


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
        self.tasks: list[asyncio.Task] = []
        self.redis_up = False
        self.loop: asyncio.AbstractEventLoop | None = None

    @contextlib.asynccontextmanager
    async def listen(self, game_id: int) -> AsyncIterator[asyncio.Queue]:
        """A queue that receives each new ``(kind, number)`` of ``game_id`` (possibly more
        than once, and not in order: the stream keeps the highest of each kind)."""
        queue: asyncio.Queue = asyncio.Queue()
        self.follow(game_id, queue)
        try:
            yield queue
        finally:
            self.unfollow(game_id, queue)

    def follow(self, game_id: int, queue: asyncio.Queue) -> None:
        """From now on ``queue`` also receives ``game_id``'s news (one queue may follow several
        games: an account's stream)."""
        self._start()
        self.listeners[game_id].add(queue)

    def unfollow(self, game_id: int, queue: asyncio.Queue) -> None:
        self.listeners[game_id].discard(queue)
        if not self.listeners[game_id]:
            del self.listeners[game_id]

    def watching(self) -> int:
        return sum(len(queues) for queues in self.listeners.values())

    def tell_here(self, game_id: int, version: int, kind: str = VERSION) -> None:
        """From any thread of this process: its own open streams hear at once, without waiting
        for Redis or the next database check (a move made by this web process)."""
        loop = self.loop
        if loop is not None and not loop.is_closed() and game_id in self.listeners:
            loop.call_soon_threadsafe(self._deliver, game_id, version, kind)

    def _deliver(self, game_id: int, number: int, kind: str = VERSION) -> None:
        for queue in self.listeners.get(game_id, ()):
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
                    await pubsub.psubscribe(f"{CHANNEL}*", f"{CHAT_CHANNEL}*")
                    self.redis_up = True
                    async for message in pubsub.listen():
                        if message["type"] != "pmessage":
                            continue
                        channel = message["channel"].decode()
                        kind = CHAT if channel.startswith(CHAT_CHANNEL) else VERSION
                        game_id = int(channel.rsplit(":", 1)[1])
                        self._deliver(game_id, int(message["data"]), kind)
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


# --- watchers -----------------------------------------------------------------------------------

WATCHERS = "nyet:watchers:"  # + the game's id: a sorted set of streams, scored by their expiry
WATCHER_TTL = 45.0  # seconds: a stream says it still watches more often than that


def watcher_token(user_id: int | None) -> str:
    """A new stream's name in the count: whose it is (a user's id, or ``-`` for a visitor
    not logged in) and a random part, so that a count can leave out the seated players'."""
    return f"{user_id or '-'}:{uuid.uuid4().hex}"


def _whose(token: str) -> int | None:
    user_id = token.split(":", 1)[0] if ":" in token else ""
    return int(user_id) if user_id.isdigit() else None


class Watchers:
    """How many people not seated at a game have its page open (its spectators' streams).

    Each open page's stream is a member, named by its user (``watcher_token``); the count
    leaves out the streams of the users ``seated`` at the table when it is read, so that a
    spectator who takes a seat stops counting at once, on every page, although their stream
    was opened as a spectator's (and a player who leaves a waiting table counts again).

    With Redis, every web process counts together: each stream is a member of the game's sorted
    set, scored by when it expires unless it says it still watches (``still``); a process that
    dies leaves members that expire by themselves. Without Redis (the embedded default, one web
    process), this process's count is the count."""

    def __init__(self) -> None:
        self.here: dict[int, dict[str, int | None]] = defaultdict(dict)

    def _redis(self):
        if not settings.REDIS_URL or time.monotonic() < _redis_down_until:
            return None
        return _client()

    def _try(self, work) -> None:
        global _redis_down_until
        client = self._redis()
        if client is None:
            return
        try:
            work(client)
        except Exception:
            _redis_down_until = time.monotonic() + PUBLISH_RETRY_AFTER
            log.warning("could not count the watchers in Redis", exc_info=True)

    def came(self, game_id: int, token: str) -> None:
        self.here[game_id][token] = _whose(token)
        self.still(game_id, token)

    def still(self, game_id: int, token: str) -> None:
        def work(client):
            key = f"{WATCHERS}{game_id}"
            now = time.time()
            # one round trip: prune the streams that expired (their process died), say this
            # one still watches, and keep the set no longer than its streams
            pipe = client.pipeline(transaction=False)
            pipe.zremrangebyscore(key, 0, now)
            pipe.zadd(key, {token: now + WATCHER_TTL})
            pipe.expire(key, int(WATCHER_TTL) * 2)
            pipe.execute()

        self._try(work)

    def left(self, game_id: int, token: str) -> None:
        self.here[game_id].pop(token, None)
        if not self.here[game_id]:
            del self.here[game_id]
        self._try(lambda client: client.zrem(f"{WATCHERS}{game_id}", token))

    def count(self, game_id: int, seated: Iterable[int] = ()) -> int:
        """The open streams of ``game_id`` but for those of the ``seated`` users (ids)."""
        global _redis_down_until
        seated = set(seated)
        client = self._redis()
        if client is not None:
            key = f"{WATCHERS}{game_id}"
            try:
                # the streams not yet expired, in one read (every game page asks: ``still``
                # prunes the expired ones)
                tokens = client.zrangebyscore(key, f"({time.time()}", "+inf")
                return sum(_whose(t.decode()) not in seated for t in tokens)
            except Exception:
                # Pages do not wait for a Redis that is away: this process's count meanwhile.
                _redis_down_until = time.monotonic() + PUBLISH_RETRY_AFTER
                log.warning("could not count the watchers in Redis", exc_info=True)
        return sum(user_id not in seated for user_id in self.here.get(game_id, {}).values())


watchers = Watchers()
