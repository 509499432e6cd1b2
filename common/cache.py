"""The shared cache: Redis, with this process's memory standing in while Redis is away.

The cache counts rate limits (logins, sign-ups, moves) that every web process must share, so it
is Redis in production. A cache outage must not reach players: a page that cannot count an
attempt in Redis counts it here instead (each process for itself, so a limit is looser for as
long as Redis is down, never a 500). After a failure Redis is left alone for ``RETRY_AFTER``
seconds, so that a page does not wait for a connection timeout on every cache call
(``common.breaker``: the outage is logged once).
"""

from __future__ import annotations

import logging

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

from common.breaker import Breaker

log = logging.getLogger(__name__)

RETRY_AFTER = 10.0  # seconds without trying Redis after it failed
# Django makes a cache object per thread; whether Redis is down is known per process.
_breakers: dict[str, Breaker] = {}
_fallbacks: dict[str, LocMemCache] = {}


def reset() -> None:
    """Presume every cache's Redis up: the next call tries it (tests that bring it back)."""
    for breaker in _breakers.values():
        breaker.reset()


class ResilientRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._location = server if isinstance(server, str) else ",".join(server)
        if self._location not in _fallbacks:
            _fallbacks[self._location] = LocMemCache(f"fallback:{self._location}", params)
        self._fallback = _fallbacks[self._location]
        # setdefault: two threads making their first cache at once still share one breaker
        self._breaker = _breakers.setdefault(
            self._location,
            Breaker(f"the cache at {self._location}", RETRY_AFTER, log=log, traceback=False),
        )

    def _call(self, name: str, *args, **kwargs):
        if not self._breaker.allows():
            return getattr(self._fallback, name)(*args, **kwargs)
        try:
            answer = getattr(super(), name)(*args, **kwargs)
        except (RedisError, OSError):
            self._breaker.failed("the cache at %s is unreachable: using memory", self._location)
            return getattr(self._fallback, name)(*args, **kwargs)
        self._breaker.succeeded()
        return answer

    def add(self, *args, **kwargs):
        return self._call("add", *args, **kwargs)

    def get(self, *args, **kwargs):
        return self._call("get", *args, **kwargs)

    def set(self, *args, **kwargs):
        return self._call("set", *args, **kwargs)

    def touch(self, *args, **kwargs):
        return self._call("touch", *args, **kwargs)

    def delete(self, *args, **kwargs):
        return self._call("delete", *args, **kwargs)

    def get_many(self, *args, **kwargs):
        return self._call("get_many", *args, **kwargs)

    def has_key(self, *args, **kwargs):
        return self._call("has_key", *args, **kwargs)

    def incr(self, *args, **kwargs):
        return self._call("incr", *args, **kwargs)

    def set_many(self, *args, **kwargs):
        return self._call("set_many", *args, **kwargs)

    def delete_many(self, *args, **kwargs):
        return self._call("delete_many", *args, **kwargs)

    def clear(self):
        return self._call("clear")
