"""The Celery app. Its configuration is the CELERY_* settings in nyet_site/settings.py.

Start a worker with: .venv/bin/celery -A nyet_site worker
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nyet_site.settings")

app = Celery("nyet_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
