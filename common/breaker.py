"""A circuit breaker: after a failure, a service is left alone for a cool-down, then tried again.

A page must not wait for a connection timeout on every call to a service that is away (Redis for
the live push and the shared cache, the Celery broker): the first failure opens the breaker,
``allows`` says no for ``cool_down`` seconds, then yes again for one more try. A try that fails
again opens it for another cool-down; one that succeeds closes it.

An outage (from the first failure to the next success, or ``reset``) is logged once, with the
caller's message, and its end once at INFO: a service that stays away for an hour logs one
warning, not one per cool-down.

Several threads share one breaker (a web process's): its state is a few plain fields, the
transitions that log are taken under a lock so that an outage is logged once however many
threads fail at once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable


class Breaker:
    """Whether ``name`` (the service, in the log) may be tried now.

    ``log``, ``level`` and ``traceback``: where, how loud, and whether with the exception's
    traceback the start of an outage is logged. ``clock``: seconds, ``time.monotonic`` unless
    given (a test's)."""

    def __init__(
        self,
        name: str,
        cool_down: float,
        *,
        log: logging.Logger,
        level: int = logging.WARNING,
        traceback: bool = True,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.name = name
        self.cool_down = cool_down
        self.log = log
        self.level = level
        self.traceback = traceback
        self.clock = clock
        self._lock = threading.Lock()
        self._until = 0.0  # no try before this (the clock's time)
        self._since: float | None = None  # when the outage began; None: no outage

    def _now(self) -> float:
        # looked up at each call, not bound once: a test may replace time.monotonic
        return self.clock() if self.clock is not None else time.monotonic()

    def allows(self) -> bool:
        """Whether to try the service now: no failure yet, or the cool-down is over."""
        return self._now() >= self._until

    @property
    def out(self) -> bool:
        """Whether an outage is under way (a failure not yet followed by a success)."""
        return self._since is not None

    def failed(self, message: str, *args: object) -> None:
        """A try failed: no other for ``cool_down`` seconds. Called in the ``except`` block,
        so that the log has the exception; ``message % args`` is logged if this failure begins
        an outage."""
        now = self._now()
        with self._lock:
            first = self._since is None
            if first:
                self._since = now
            self._until = now + self.cool_down
        if first:
            self.log.log(self.level, message, *args, exc_info=self.traceback)

    def succeeded(self) -> None:
        """A try succeeded: the outage, if any, is over (and logged as over)."""
        if self._since is None:  # the common case, without taking the lock
            return
        with self._lock:
            since, self._since = self._since, None
            self._until = 0.0
        if since is not None:
            self.log.info("%s answers again after %.0f s", self.name, self._now() - since)

    def reset(self) -> None:
        """Forget any failure: the service is presumed up, tried at the next call, and its
        next failure logged (tests, or an operator who knows it is back)."""
        with self._lock:
            self._since = None
            self._until = 0.0
