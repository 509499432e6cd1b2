"""Settings are read once, at import, from the environment: each case imports them for real in a
fresh interpreter with only the variables it sets."""

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings

from tests.environment import OUR_VARIABLES, REAL_KEY, import_settings, settings_with
from tests.servers import ROOT as PROJECT_DIR


def refusal_with(**env: str) -> str:
    process = import_settings(**env)
    assert process.returncode != 0, process.stdout
    assert "django.core.exceptions.ImproperlyConfigured" in process.stderr, process.stderr
    return process.stderr.strip().splitlines()[-1]


def test_development_needs_no_variable():
    loaded = settings_with()

    assert loaded["DEBUG"] is True
    assert loaded["DATABASE"]["ENGINE"] == "django.db.backends.sqlite3"
    assert loaded["DATABASE"]["NAME"] == str(PROJECT_DIR / "db.sqlite3")
    assert loaded["broker_url"] == f"sqla+sqlite:///{PROJECT_DIR / 'celery-broker.sqlite3'}"
    assert loaded["task_always_eager"] is False
    assert loaded["EXPERT_BOT_SECONDS"] == 5.0


@pytest.mark.parametrize(
    "env",
    [
        {},
        {"SECRET_KEY": ""},
        {"SECRET_KEY": settings.DEV_SECRET_KEY},
    ],
    ids=["unset", "empty", "development default"],
)
def test_production_refuses_the_development_secret_key(env):
    refusal = refusal_with(NYET_ENV="production", DEBUG="false", **env)

    assert "SECRET_KEY" in refusal


@pytest.mark.parametrize("debug", ["true", "1", "on"])
def test_production_refuses_debug_on(debug):
    refusal = refusal_with(NYET_ENV="production", SECRET_KEY=REAL_KEY, DEBUG=debug)

    assert "DEBUG" in refusal


@pytest.mark.parametrize("debug", ["false", "0", ""], ids=["false", "0", "unset"])
def test_production_starts_with_a_real_key_and_debug_off(debug):
    loaded = settings_with(
        NYET_ENV="production",
        SECRET_KEY=REAL_KEY,
        SITE_URL="https://nyet.example.org",
        DEBUG=debug,
        ALLOWED_HOSTS="nyet.example.org, www.nyet.example.org",
    )

    assert loaded["DEBUG"] is False
    assert loaded["ALLOWED_HOSTS"] == ["nyet.example.org", "www.nyet.example.org"]


def test_production_takes_its_push_key_pair_from_the_environment_alone():
    production = {
        "NYET_ENV": "production",
        "SECRET_KEY": REAL_KEY,
        "SITE_URL": "https://nyet.example.org",
    }
    # Never the development file, even where `make run` has written one.
    assert settings_with(**production)["VAPID"][:2] == ["", ""]
    loaded = settings_with(
        **production,
        VAPID_PUBLIC_KEY="the-public-key",
        VAPID_PRIVATE_KEY="the-private-key",
        VAPID_SUBJECT="https://nyet.example.org/contact",
    )
    assert loaded["VAPID"] == [
        "the-public-key",
        "the-private-key",
        "https://nyet.example.org/contact",
    ]


def test_the_push_subject_is_the_senders_address_unless_set():
    loaded = settings_with(DEFAULT_FROM_EMAIL="Nyet! online <ops@nyet.example.org>")
    assert loaded["VAPID"][2] == "mailto:ops@nyet.example.org"


@pytest.mark.parametrize(
    "site_url",
    [None, "http://nyet.example.org", "https://127.0.0.1:8000", "https://localhost"],
    ids=["default", "http", "loopback", "localhost"],
)
def test_production_refuses_a_site_url_that_emails_cannot_link_to(site_url):
    env = {"NYET_ENV": "production", "SECRET_KEY": REAL_KEY, "DEBUG": "false"}
    if site_url:
        env["SITE_URL"] = site_url
    assert "SITE_URL" in refusal_with(**env)


def test_an_unknown_environment_is_refused():
    assert "NYET_ENV" in refusal_with(NYET_ENV="prod")


def test_an_unreadable_debug_is_refused():
    assert "DEBUG" in refusal_with(DEBUG="maybe")


def test_a_postgresql_database_url_selects_postgresql():
    loaded = settings_with(DATABASE_URL="postgresql://nyet@db.example.org:5432/nyet")

    assert loaded["DATABASE"] == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "nyet",
        "HOST": "db.example.org",
        "USER": "nyet",
    }


def test_an_empty_database_url_means_sqlite():
    loaded = settings_with(DATABASE_URL="")

    assert loaded["DATABASE"]["ENGINE"] == "django.db.backends.sqlite3"


def test_celery_takes_its_broker_from_redis_url():
    loaded = settings_with(REDIS_URL="redis://127.0.0.1:6379/0")

    assert loaded["broker_url"] == "redis://127.0.0.1:6379/0"
    assert loaded["task_always_eager"] is False


def test_celery_broker_url_wins_over_redis_url():
    loaded = settings_with(
        CELERY_BROKER_URL="redis://127.0.0.1:6379/1",
        REDIS_URL="redis://127.0.0.1:6379/0",
        CELERY_TASK_ALWAYS_EAGER="true",
    )

    assert loaded["broker_url"] == "redis://127.0.0.1:6379/1"
    assert loaded["task_always_eager"] is True


def test_smtp_comes_with_a_timeout():
    assert settings_with()["EMAIL_BACKEND"].endswith("console.EmailBackend")
    loaded = settings_with(EMAIL_HOST="smtp.example.org")

    assert loaded["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert loaded["EMAIL_TIMEOUT"] == 10, "a hanging mail server must not hold a worker"


def database_settings(**env: str) -> dict:
    environ = {k: v for k, v in os.environ.items() if k not in OUR_VARIABLES}
    environ.update(DJANGO_SETTINGS_MODULE="nyet_site.settings", **env)
    code = (
        "import json, django; django.setup(); from django.conf import settings;"
        " d = settings.DATABASES['default'];"
        " print(json.dumps({'age': d['CONN_MAX_AGE'], 'options': d['OPTIONS']}))"
    )
    process = subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT_DIR, env=environ, capture_output=True, text=True
    )
    assert process.returncode == 0, process.stderr
    return json.loads(process.stdout)


def test_postgresql_connections_go_through_a_bounded_pool():
    loaded = database_settings(DATABASE_URL="postgresql://nyet@db.example/nyet")
    assert loaded["age"] == 0  # a pool takes no persistent connections of Django's own
    assert loaded["options"]["pool"]["max_size"] == 10
    loaded = database_settings(
        DATABASE_URL="postgresql://nyet@db.example/nyet", DATABASE_POOL_SIZE="4"
    )
    assert loaded["options"]["pool"]["max_size"] == 4
    assert "pool" not in database_settings()["options"]  # SQLite: as it was


def test_a_pool_size_must_be_a_number():
    message = refusal_with(DATABASE_URL="postgresql://nyet@db.example/nyet", DATABASE_POOL_SIZE="x")
    assert "DATABASE_POOL_SIZE must be a number" in message


def test_the_expert_bots_time_is_configurable():
    assert settings_with(EXPERT_BOT_SECONDS="7.5")["EXPERT_BOT_SECONDS"] == 7.5
    assert "EXPERT_BOT_SECONDS must be a number" in refusal_with(EXPERT_BOT_SECONDS="slow")


def test_the_sweep_period_must_be_a_number_of_seconds():
    assert "SWEEP_SECONDS must be a number" in refusal_with(SWEEP_SECONDS="often")
    assert "SWEEP_SECONDS must be at least 1" in refusal_with(SWEEP_SECONDS="0")
