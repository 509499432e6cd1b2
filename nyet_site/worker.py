"""The Celery workers' consumer (``CELERY_WORKER_CONSUMER``): Celery's, but it tries a lost
broker again every second.

Celery waits 2, 4, 6, ... then 30 seconds between two tries, so a worker could come back up to
30 seconds after Redis did, and the live tables' bots would wait as long. A try costs one
refused connection (or ``CELERY_BROKER_CONNECTION_TIMEOUT`` for a broker that does not answer).
"""

from __future__ import annotations

import functools

from celery.worker.consumer import Consumer as CeleryConsumer

RETRY_EVERY = 1.0  # seconds


class Consumer(CeleryConsumer):
    def ensure_connected(self, conn):
        conn.ensure_connection = functools.partial(
            conn.ensure_connection,
            interval_start=RETRY_EVERY,
            interval_step=0,
            interval_max=RETRY_EVERY,
        )
        return super().ensure_connected(conn)
