"""The Celery app. Its configuration is the CELERY_* settings in nyet_site/settings.py.

`make run` starts a worker beside the web server (Procfile); by hand:
.venv/bin/celery -A nyet_site worker --pool=solo --loglevel=info
"""

import gc
import os
import signal

from celery import Celery
from celery.signals import beat_init, worker_process_init, worker_ready
from celery.utils.log import get_task_logger

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nyet_site.settings")

app = Celery("nyet_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
if app.conf.broker_url.startswith("sqla+"):
    # The embedded broker (a SQLite file) is read by polling, every second by default: a bot's
    # reply would wait for it (benchmarks/live_push.py). A tenth of a second costs one small
    # query each time. Set on the class because kombu hands a `polling_interval` transport
    # option on to SQLAlchemy's create_engine, which refuses it.
    from kombu.transport import sqlalchemy

    sqlalchemy.Transport.polling_interval = 0.1
# One log line per task: nyet_site/observability.py connects to Celery's task signals.
import nyet_site.observability  # noqa: E402, F401

logger = get_task_logger(__name__)


@worker_process_init.connect
def finish_the_task_on_sigterm(**kwargs):
    """A pool process ignores SIGTERM and finishes its task. Honcho, Heroku and systemd's
    default KillMode send SIGTERM to every process of the group at once: the main process then
    stops warmly, waiting for the running tasks, but its pool processes died of the same signal
    (WorkerLostError, a task cut midway). The main process still stops them when they are done
    (even in a cold shutdown), and a hard time limit or the process manager's SIGKILL still
    ends one that hangs. Billiard keeps an ignored signal ignored."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


@worker_ready.connect
@beat_init.connect
def quick_exit(**kwargs):
    """Everything loaded at start lives as long as the process: moved out of the collector's
    sight (``gc.freeze``), it costs no more time at each collection, nor at exit, where Python's
    last collections took 3 s on a busy machine (0.2 s frozen): after Ctrl-C, `make run` waited
    for them (tests/test_run.py)."""
    gc.freeze()


@app.task(ignore_result=True)
def debug_task(message: str = "ping") -> str:
    """Logs ``message`` in the worker: a way to see that tasks reach it."""
    logger.info("debug_task: %s", message)
    return message
