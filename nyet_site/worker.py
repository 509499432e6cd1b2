"""The Celery workers' consumer (``CELERY_WORKER_CONSUMER``): Celery's, but it tries a lost
broker again every second, and a lost connection that fails to close never stops the worker.

Celery waits 2, 4, 6, ... then 30 seconds between two tries, so a worker could come back up to
30 seconds after Redis did, and the live tables' bots would wait as long. A try costs one
refused connection (or ``CELERY_BROKER_CONNECTION_TIMEOUT`` for a broker that does not answer).

Closing the lost connection, kombu's Redis channel puts the messages the worker held back in
their queues, through a client it makes anew; when the connection has already been collected
that fails with ``AttributeError: 'NoneType' object has no attribute 'hostname'``, which Celery
takes for an unrecoverable error: the worker exited (once in three outages of 90 s with 20 live
tables, benchmarks/outage.py). The messages then stay in Redis's ``unacked`` hash until kombu's
visibility timeout puts them back; every task is safe to run late, and the live tick or the
sweep queues again the bot turns and timeouts they carried, so the worker carries on instead.
"""

from __future__ import annotations

import functools
import logging

from celery.worker.consumer import Consumer as CeleryConsumer

RETRY_EVERY = 1.0  # seconds

log = logging.getLogger(__name__)


class Consumer(CeleryConsumer):
    def ensure_connected(self, conn):
        conn.ensure_connection = functools.partial(
            conn.ensure_connection,
            interval_start=RETRY_EVERY,
            interval_step=0,
            interval_max=RETRY_EVERY,
        )
        return super().ensure_connected(conn)

    def on_connection_error_after_connected(self, exc):
        try:
            super().on_connection_error_after_connected(exc)
        except AttributeError:
            log.warning(
                "the lost broker connection did not close cleanly; the messages this worker "
                "held go back to their queues after the broker's visibility timeout",
                exc_info=True,
            )
