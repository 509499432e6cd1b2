"""Handing work to the Celery workers, after the change that calls for it has committed.

Tasks are named, not imported, so that the write path (``games.actions``) does not import the
tasks that call it. Each kind of work has its queue, so that slow work never holds up the work a
player is waiting for (``nyet_site/settings.py``, ``CELERY_TASK_ROUTES``):

- ``play``: bot moves a person waits for;
- ``think``: the bot turns of a table with an Expert (correspondence only), seconds a move;
- ``catchup``: the bot turns of a table with no person left at it (all bots, resigned or on
  autopilot), and what the sweep finds due (timeouts, bot turns whose task was lost);
- ``email``: one task per email of the outbox;
- ``sweep``: the periodic sweep itself.

A broker that cannot be reached never undoes or slows down a move: after a failed publish,
nothing more is tried for ``BROKER_RETRY_AFTER`` seconds (each try would wait for a connection
timeout; ``common.breaker``, which logs the outage once); the work is written in the database,
so the sweep queues it again.
"""

from __future__ import annotations

import logging

from celery import current_app
from django.db import transaction

from common.breaker import Breaker

log = logging.getLogger(__name__)

# Short enough that the live tick queues the stalled bot turns within a few seconds of the
# broker's return (benchmarks/outage.py); long enough that a broker which hangs (rather than
# refuses) costs a process one socket timeout every few seconds, not every call.
BROKER_RETRY_AFTER = 3.0  # seconds
_breaker = Breaker("the broker", BROKER_RETRY_AFTER, log=log, level=logging.ERROR)


def publish(task_name: str, *args, **options) -> bool:
    """Send ``task_name(*args)`` to its queue now; whether it was sent."""
    task = current_app.tasks[task_name]
    if current_app.conf.task_always_eager:
        task.apply_async(args, **options)  # in-process: a failure is the caller's to see
        return True
    if not _breaker.allows():
        return False
    try:
        task.apply_async(args, **options)
    except Exception:
        _breaker.failed("could not queue %s%r: the broker is unreachable", task_name, args)
        return False
    _breaker.succeeded()
    return True


def publish_on_commit(task_name: str, *args, **options) -> None:
    """``publish`` once the current transaction commits (at once outside of one)."""
    transaction.on_commit(lambda: publish(task_name, *args, **options))


def held_off() -> bool:
    """Whether publishing is held off after a failure (``publish`` would not try now)."""
    return not current_app.conf.task_always_eager and not _breaker.allows()


def broker_back() -> None:
    """Forget a broker failure (tests that bring the broker back)."""
    _breaker.reset()
