"""The Celery app. Its configuration is the CELERY_* settings in nyet_site/settings.py.

`make run` starts a worker beside the web server (Procfile); by hand:
.venv/bin/celery -A nyet_site worker --pool=solo --loglevel=info
"""

import os

from celery import Celery
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


@app.task(ignore_result=True)
def debug_task(message: str = "ping") -> str:
    """Logs ``message`` in the worker: a way to see that tasks reach it."""
    logger.info("debug_task: %s", message)
    return message
