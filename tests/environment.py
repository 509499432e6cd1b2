"""The site's own environment variables, and its settings as a fresh interpreter reads them from
the environment (settings are read once, at import)."""

import json
import os
import subprocess
import sys

from tests.servers import ROOT

OUR_VARIABLES = {
    "NYET_ENV",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "REDIS_URL",
    "CELERY_TASK_ALWAYS_EAGER",
    "EMAIL_HOST",
    "EMAIL_TIMEOUT",
    "SITE_URL",
    "DATABASE_POOL_SIZE",
    "DATABASE_POOL_TIMEOUT",
    "TRUSTED_PROXY_COUNT",
    "RATELIMIT_ENABLE",
    "HARD_BOT_SECONDS",
    "SWEEP_SECONDS",
    "EXPERT_BOT_SECONDS",
    "VAPID_PUBLIC_KEY",
    "VAPID_PRIVATE_KEY",
    "VAPID_SUBJECT",
}
PRINT_SETTINGS = """
import json

import django

django.setup()

from django.conf import settings

from nyet_site import celery_app

print(json.dumps({
    "DEBUG": settings.DEBUG,
    "ALLOWED_HOSTS": settings.ALLOWED_HOSTS,
    "DATABASE": {k: settings.DATABASES["default"][k] for k in ("ENGINE", "NAME", "HOST", "USER")},
    "broker_url": celery_app.conf.broker_url,
    "task_always_eager": celery_app.conf.task_always_eager,
    "EMAIL_BACKEND": settings.EMAIL_BACKEND,
    "EMAIL_TIMEOUT": settings.EMAIL_TIMEOUT,
    "EXPERT_BOT_SECONDS": settings.EXPERT_BOT_SECONDS,
    "VAPID": [settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY, settings.VAPID_SUBJECT],
}))
"""
REAL_KEY = "a-real-secret-key-of-fifty-characters-or-so-0123456789"


def import_settings(**env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in OUR_VARIABLES}
    environ["DJANGO_SETTINGS_MODULE"] = "nyet_site.settings"
    environ.update(env)
    return subprocess.run(
        [sys.executable, "-c", PRINT_SETTINGS],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )


def settings_with(**env: str) -> dict:
    process = import_settings(**env)
    assert process.returncode == 0, process.stderr
    return json.loads(process.stdout)
