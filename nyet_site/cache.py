"""The shared cache: Redis, with this process's memory standing in while Redis is away.

The cache counts rate limits (logins, sign-ups, moves) that every web process must share, so it
is Redis in production. A cache outage must not reach players: a page that cannot count an
attempt in Redis counts it here instead (each process for itself, so a limit is looser for as
long as Redis is down, never a 500). After a failure Redis is left alone for ``RETRY_AFTER``
seconds, so that a page does not wait for a connection timeout on every cache call.
"""

from __future__ import annotations

import logging
import time

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

RETRY_AFTER = 10.0  # seconds without trying Redis after it failed
# Django makes a cache object per thread; whether Redis is down is known per process.
_down_until: dict[str, float] = {}
_fallbacks: dict[str, LocMemCache] = {}


class ResilientRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._location = server if isinstance(server, str) else ",".join(server)
        if self._location not in _fallbacks:
            _fallbacks[self._location] = LocMemCache(f"fallback:{self._location}", params)
        self._fallback = _fallbacks[self._location]

    def _call(self, name: str, *args, **kwargs):
        if time.monotonic() < _down_until.get(self._location, 0.0):
            return getattr(self._fallback, name)(*args, **kwargs)
        try:
            return getattr(super(), name)(*args, **kwargs)
        except (RedisError, OSError):
            if time.monotonic() >= _down_until.get(self._location, 0.0):
                log.warning("the cache at %s is unreachable: using memory", self._location)
            _down_until[self._location] = time.monotonic() + RETRY_AFTER
            return getattr(self._fallback, name)(*args, **kwargs)

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
