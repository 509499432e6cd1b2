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
logger = get_task_logger(__name__)


@app.task(ignore_result=True)
def debug_task(message: str = "ping") -> str:
    """Logs ``message`` in the worker: a way to see that tasks reach it."""
    logger.info("debug_task: %s", message)
    return message
