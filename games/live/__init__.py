"""Live push: every open game page hears at once that its game has moved, or that its table
chat has a new message.

An announcement says only "game N is at version V" (and whose move made it), or "game N's chat
is at message M". Each page's stream then draws its own seat's table for a seated player, or
tells the page, which fetches it (``games/stream.py``), so hidden information still goes only
through ``view(state, seat)`` (games/selectors), and chat only to the table's players.

- Announcing (here): a change announces its new version after it commits
  (``announce_on_commit``), to this process's own streams at once and, when ``REDIS_URL`` is set,
  to every process through Redis pub/sub. ``announce_access_on_commit`` tells the streams of an
  API token that its rights may have changed.
- Listening (``listening``): each web process's ``Hub`` hears those announcements, and reads the
  watched games' versions from the database besides, and fans them out to its open streams.
- Watching (here): ``Watchers`` counts the spectators of each game (every process together
  when Redis is there).
- This process (here): ``Process`` holds the Redis client, the one breaker for all that is live,
  the hub and the watchers; ``reset`` starts them afresh (tests).

The names the streams and selectors use (``hub``, ``released``, the kinds ``VERSION``, ``CHAT``,
``HERE``, ``ACCESS``...) are importable from here, wherever they are defined.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections import defaultdict
from collections.abc import Iterable

import redis
from django.conf import settings
from django.db import transaction

from common.breaker import Breaker

from .listening import ACCESS, ACCESS_CHANNEL, CHANNELS, CHAT, HERE, VERSION, Hub, released

log = logging.getLogger(__name__)

PUBLISH_RETRY_AFTER = 10.0  # seconds without trying Redis after it failed


# --- announcing ---------------------------------------------------------------------------------


def announce(game_id: int, version: int, kind: str = VERSION, by: int | None = None) -> None:
    """Tell the open pages of ``game_id`` that it is at ``version`` (now); for ``CHAT``, that
    its chat's latest message is ``version``; for ``HERE``, that one of its pages opened or
    closed (``version``: when, in milliseconds). ``by``: the user whose move made ``version``
    (their own page has that table already: the move's answer)."""
    hub.tell_here(game_id, version, kind, by)
    client = process.available()
    if client is None:
        return  # the hubs read it from the database
    channel = CHANNELS[kind]
    try:
        client.publish(f"{channel}{game_id}", version if by is None else f"{version}:{by}")
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


def announce_on_commit(game, by: int | None = None) -> None:
    """``announce`` the game's version once the change that set it has committed (``by``: the
    user whose move it was)."""
    game_id, version = game.pk, game.version
    transaction.on_commit(lambda: announce(game_id, version, by=by))


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


__all__ = [
    "ACCESS",
    "ACCESS_CHANNEL",
    "CHAT",
    "HERE",
    "PUBLISH_RETRY_AFTER",
    "VERSION",
    "WATCHERS",
    "WATCHER_TTL",
    "Hub",
    "Process",
    "Watchers",
    "announce",
    "announce_access_on_commit",
    "announce_chat",
    "announce_on_commit",
    "hub",
    "process",
    "released",
    "reset",
    "watcher_token",
    "watchers",
]
