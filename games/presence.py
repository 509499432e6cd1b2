"""Who is on the site now (the lobby's "Online now"), and which seated players have their game's
page open (the mark on each seat of the table).

- **Online**: a player is online when seen in the last ``ONLINE_WINDOW``: by a request (at most
  once a minute per browser: ``games.last_seen.LastSeenMiddleware`` calls ``seen`` when it
  records presence) or by an open game page's event stream (when it opens, then at each of its
  keep-alives: ``games.stream``). With Redis, a sorted set of user ids scored by when they were
  last seen, which every web process shares; without it (``make run``: one web process), or
  while it is away, one entry of Django's cache. Never a database write, never a 500: a failure
  is logged and the lobby shows no one.
- **At the table**: a seat's player has the game's page open when one of the game's event
  streams is theirs (``live.watchers``: the streams are named by their user). ``here_seats``
  reads that once per drawing of the table; the streams push the change (``games.stream``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.core.cache import cache

from accounts.models import User
from games import live

log = logging.getLogger(__name__)

ONLINE = "nyet:online"  # Redis sorted set: user id -> when last seen (Unix time); the cache's key
ONLINE_WINDOW = 300.0  # seconds: seen more recently than this is online
MOST_READ = 500  # the lobby reads at most this many of the most recently seen


@dataclass
class Online:
    """Who the lobby shows online: ``players`` (most recently seen first, at most the limit
    asked) and ``count``, everyone online, of whom ``more`` are not in ``players``."""

    players: list = field(default_factory=list)
    count: int = 0

    @property
    def more(self) -> int:
        return self.count - len(self.players)


def _redis():
    """The Redis client, or None without Redis or while it is known to be away (``live``'s
    breaker: one outage, one pause for everything live)."""
    return live.process.available()


def _redis_failed(what: str) -> None:
    live.process.breaker.failed("could not %s in Redis", what)


def seen(user_id: int | None, now: float | None = None) -> None:
    """``user_id`` is on the site now. One Redis round trip (or a cache read and write)."""
    if not user_id:
        return
    now = time.time() if now is None else now
    client = _redis()
    if client is not None:
        try:
            pipe = client.pipeline(transaction=False)
            pipe.zadd(ONLINE, {str(user_id): now})
            pipe.zremrangebyscore(ONLINE, 0, now - ONLINE_WINDOW)  # the set stays as small
            pipe.expire(ONLINE, int(ONLINE_WINDOW) * 2)
            pipe.execute()
        except Exception:
            _redis_failed("note who is online")
        else:
            live.process.breaker.succeeded()
            return
    try:
        # One entry for everyone: the cache cannot list its keys. A write that races another
        # loses a touch, made again a minute later at most.
        last = {
            who: when
            for who, when in (cache.get(ONLINE) or {}).items()
            if when > now - ONLINE_WINDOW
        }
        last[user_id] = now
        cache.set(ONLINE, last, int(ONLINE_WINDOW) * 2)
    except Exception:
        log.warning("could not note who is online in the cache", exc_info=True)


def _recent(now: float) -> list[int]:
    """The ids seen in the window, most recent first (at most ``MOST_READ``)."""
    client = _redis()
    if client is not None:
        try:
            ids = client.zrevrangebyscore(
                ONLINE, "+inf", f"({now - ONLINE_WINDOW}", start=0, num=MOST_READ
            )
        except Exception:
            _redis_failed("read who is online")
        else:
            live.process.breaker.succeeded()
            return [int(i) for i in ids]
    try:
        last = cache.get(ONLINE) or {}
    except Exception:
        log.warning("could not read who is online from the cache", exc_info=True)
        return []
    recent = sorted(
        ((when, who) for who, when in last.items() if when > now - ONLINE_WINDOW), reverse=True
    )
    return [who for _when, who in recent[:MOST_READ]]


def online_now(limit: int = 12, viewer=None) -> Online:
    """The people (never bots) seen in the last few minutes, for the lobby, ``viewer`` (the
    person looking) left out. One query when anyone is online, none otherwise."""
    ids = _recent(time.time())
    mine = getattr(viewer, "pk", None) if getattr(viewer, "is_authenticated", False) else None
    ids = [i for i in ids if i != mine]
    if not ids:
        return Online()
    people = {
        user.pk: user
        for user in User.objects.filter(
            pk__in=ids, is_active=True, bot_level="", bot_account=False
        ).only("username", "display_name", "bot_level", "bot_account")
    }
    ordered = [people[i] for i in ids if i in people]
    return Online(players=ordered[:limit], count=len(ordered))


def positions_here(stream_users: Iterable[int | None], seated: dict[int, int]) -> set[int]:
    """The seats (``seated``: user id -> position) with a stream among ``stream_users``."""
    return {seated[u] for u in stream_users if u in seated}


def mark_panels(panels, infos, game_id: int, stream_users=None) -> None:
    """Each person's panel says whether their page is open (``Panel.here``); a bot's says
    nothing. The viewer's own is open: they are looking at it. ``stream_users``: the game's
    streams' users, when the caller read them already."""
    people = {i.user_id: i.position for i in infos if i.user_id and not i.is_bot}
    users = live.watchers.users(game_id) if stream_users is None else stream_users
    here = positions_here(users, people)
    for panel in panels:
        if panel.position in people.values():
            panel.here = panel.is_me or panel.position in here
