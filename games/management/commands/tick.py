"""The live tick: every second, what is due at the live tables (``games.actions.deadlines.tick``).

One process of it runs beside the workers (the Procfile's ``tick``). Two at once do no harm
(every move locks its game and checks its version), so a deployment may overlap them. It needs
no broker to play a timeout: a live clock runs out on time even while Redis is away. A failed
tick (the database away) is logged and the next one tries again.
"""

from __future__ import annotations

import gc
import logging
import signal
import time

from django.core.management.base import BaseCommand
from django.db import close_old_connections

from games.actions.deadlines import tick

log = logging.getLogger("games.tick")


class Command(BaseCommand):
    help = "Every second: the live tables' timeouts, reminders and lost bot turns."

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=1.0, help="seconds between ticks")
        parser.add_argument("--once", action="store_true", help="one tick, then exit")

    def handle(self, *args, interval: float, once: bool, **options):
        log.info("live tick every %s s", interval)
        if not once:
            # What is loaded now lives as long as the process: out of the collector's sight, it
            # costs no time at exit (3 s on a busy machine, after Ctrl-C; nyet_site/celery.py).
            gc.freeze()
        stopping = []
        # A process manager's SIGTERM ends the tick between two passes (exit 0), never midway.
        signal.signal(signal.SIGTERM, lambda signum, frame: stopping.append(signum))
        while not stopping:
            started = time.monotonic()
            try:
                found = tick()
            except Exception:
                log.exception("the live tick failed")
                found = None
            finally:
                close_old_connections()
            if found and any(found.values()):
                log.info("tick: %s", found)
            if once:
                return
            time.sleep(max(0.0, interval - (time.monotonic() - started)))  # SIGTERM: then stop
        log.info("live tick stopped")
