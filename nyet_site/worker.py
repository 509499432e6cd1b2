"""The Celery workers' consumer (``CELERY_WORKER_CONSUMER``): Celery's, but it tries a lost
broker again every second, and a connection lost under a finishing task never stops it.

Celery waits 2, 4, 6, ... then 30 seconds between two tries, so a worker could come back up to
30 seconds after Redis did, and the live tables' bots would wait as long. A try costs one
refused connection (or ``CELERY_BROKER_CONNECTION_TIMEOUT`` for a broker that does not answer).

When the connection is lost, kombu's Redis channel may still need a client after the
transport has let its connection go: to acknowledge a task that finished meanwhile, or to put
back the messages the worker held. It then fails with ``AttributeError: 'NoneType' object has no
attribute 'hostname'``, which Celery takes for an unrecoverable error: the worker exited (twice
in six outages of 90 s with 20 live tables, benchmarks/outage.py). Here that case raises the
connection error kombu expects instead, which it handles as a lost connection: the ack is lost
(the task runs again, and does nothing: every task is safe to run twice), the held messages go
back after the broker's visibility timeout, and the live tick or the sweep queues again the
bot turns and timeouts they carried.
"""

from __future__ import annotations

import functools

import redis
from celery.worker.consumer import Consumer as CeleryConsumer
from kombu.transport import redis as kombu_redis

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


_connparams = kombu_redis.Channel._connparams


def _connparams_of_an_open_connection(self, asynchronous=False):
    if self.connection.client is None:
        raise redis.exceptions.ConnectionError("the connection to the broker was closed")
    return _connparams(self, asynchronous)


kombu_redis.Channel._connparams = _connparams_of_an_open_connection
