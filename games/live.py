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

Listeners receive ``(kind, number)`` pairs: ``(VERSION, v)``, ``(CHAT, message_id)`` and
``(HERE, when)`` (a page of the game opened or closed: its seats' presence marks may change).

A stream opened with an API token also hears ``(ACCESS, when)`` when that token may have lost its
rights (revoked, or no longer granting ``read``): ``announce_access_on_commit`` tells every
process at once (Redis, and this process's own streams directly), and each database check also
asks ``Hub.lost_access`` (set by the API, which owns the tokens: one query for all the tokens of
the streams open in the process), so that without Redis, or with a notice lost, a stream still
learns within a check. A notice only wakes a stream: it checks its token itself
(``api/stream.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
import uuid
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Iterable

import redis
from asgiref.sync import sync_to_async
from django import db
from django.conf import settings
from django.db import transaction
from django.db.models import Max

from common.breaker import Breaker
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
PUBLISH_RETRY_AFTER = 10.0  # seconds without trying Redis after it failed


# --- announcing ---------------------------------------------------------------------------------


def announce(game_id: int, version: int, kind: str = VERSION) -> None:
    """Tell the open pages of ``game_id`` that it is at ``version`` (now); for ``CHAT``, that
    its chat's latest message is ``version``; for ``HERE``, that one of its pages opened or
    closed (``version``: when, in milliseconds)."""
    hub.tell_here(game_id, version, kind)
    client = process.available()
    if client is None:
        return  # the hubs read it from the database
    channel = CHANNELS[kind]
    try:
        client.publish(f"{channel}{game_id}", version)
    except Exception:
        process.breaker.failed("could not announce game %s at %s %s", game_id, kind, version)
        return
    process.breaker.succeeded()


def announce_chat(game_id: int, message_id: int) -> None:
    announce(game_id, message_id, CHAT)


def announce_access_on_commit(token_id: int) -> None:
    """Once the change commits, the open streams of API token ``token_id`` (in every process)
    check it again: it was revoked, or its scopes changed."""
    transaction.on_commit(lambda: announce(token_id, int(time.time() * 1000), ACCESS))


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
        # the queues of the streams opened with each API token (by its id): told of ``ACCESS``
        self.guarded: dict[int, set[asyncio.Queue]] = defaultdict(set)
        # the ids, among those given, of the tokens that no longer let a stream read (the API's)
        self.lost_access: Callable[[list[int]], Iterable[int]] | None = None
        self.tasks: list[asyncio.Task] = []
        self.redis_up = False
        self.loop: asyncio.AbstractEventLoop | None = None

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

    def watching(self) -> int:
        return sum(len(queues) for queues in self.listeners.values())

    def tell_here(self, game_id: int, version: int, kind: str = VERSION) -> None:
        """From any thread of this process: its own open streams hear at once, without waiting
        for Redis or the next database check (a move made by this web process)."""
        loop = self.loop
        heard = self.guarded if kind == ACCESS else self.listeners
        if loop is not None and not loop.is_closed() and game_id in heard:
            loop.call_soon_threadsafe(self._deliver, game_id, version, kind)

    def _deliver(self, game_id: int, number: int, kind: str = VERSION) -> None:
        """``game_id``: for ``ACCESS``, the token's id."""
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

    def _try(self, work) -> None:
        client = process.available()
        if client is None:
            return
        try:
            work(client)
        except Exception:
            process.breaker.failed("could not count the watchers in Redis")
            return
        process.breaker.succeeded()

    def came(self, game_id: int, token: str) -> None:
        self.here[game_id][token] = _whose(token)
        self.still(game_id, token)
        self._moved(game_id, token)

    def _moved(self, game_id: int, token: str) -> None:
        """The game's other pages hear that a player's page opened or closed (their seat's
        mark), every process's through Redis; a visitor's page changes no mark."""
        if _whose(token) is not None:
            announce(game_id, int(time.time() * 1000), HERE)

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
        self._moved(game_id, token)

    def count(self, game_id: int, seated: Iterable[int] = ()) -> int:
        """The open streams of ``game_id`` but for those of the ``seated`` users (ids)."""
        seated = set(seated)
        return sum(user_id not in seated for user_id in self.users(game_id))

    def users(self, game_id: int) -> list[int | None]:
        """Whose each open stream of ``game_id`` is (None: a visitor's), in one read."""
        client = process.available()
        if client is not None:
            key = f"{WATCHERS}{game_id}"
            try:
                # the streams not yet expired, in one read (every game page asks: ``still``
                # prunes the expired ones)
                tokens = client.zrangebyscore(key, f"({time.time()}", "+inf")
            except Exception:
                # Pages do not wait for a Redis that is away: this process's count meanwhile.
                process.breaker.failed("could not count the watchers in Redis")
            else:
                process.breaker.succeeded()
                return [_whose(t.decode()) for t in tokens]
        return list(self.here.get(game_id, {}).values())


# --- this process -------------------------------------------------------------------------------


class Process:
    """What live keeps in each process: the Redis client (made from ``REDIS_URL`` at its first
    use), the breaker that leaves Redis alone for ``PUBLISH_RETRY_AFTER`` seconds after a
    failure (one outage, one pause for all that is live: announcing, the watchers,
    ``games.presence``), the hub and the watchers."""

    def __init__(self) -> None:
        self.redis: redis.Redis | None = None
        self.breaker = Breaker("Redis (live)", PUBLISH_RETRY_AFTER, log=log)
        self.hub = Hub()
        self.watchers = Watchers()

    def client(self) -> redis.Redis:
        """The Redis client, whether or not Redis is up."""
        if self.redis is None:
            self.redis = redis.Redis.from_url(
                settings.REDIS_URL, socket_connect_timeout=0.25, socket_timeout=0.5
            )
        return self.redis

    def available(self) -> redis.Redis | None:
        """The Redis client, or None without Redis or while the breaker holds it off (the
        caller then tells the breaker whether its try ``failed`` or ``succeeded``)."""
        if not settings.REDIS_URL or not self.breaker.allows():
            return None
        return self.client()

    def reset(self) -> None:
        """Afresh: a new Redis client at the next use (from ``REDIS_URL`` as it is then),
        Redis presumed up, no stream counted here. The hub is kept, running: its tasks belong
        to the event loop they run on, which may outlive a test (a server's), and a hub
        starts them again by itself on a new loop (``Hub._start``)."""
        self.redis = None
        self.breaker.reset()
        self.watchers.here.clear()


process = Process()
# The names the streams and selectors use: the same objects for the life of the process.
hub = process.hub
watchers = process.watchers


def reset() -> None:
    """``Process.reset`` this process's live state (tests, which change ``REDIS_URL``)."""
    process.reset()
