"""Tests marked ``postgres`` need a real PostgreSQL server (row locks, concurrent connections).

On the default SQLite database they are deselected (reported as deselected, not skipped).
``.ci/run`` runs each test once: the tests that touch a database (marked ``database`` here, from
their fixtures and marks) with DATABASE_URL pointing at PostgreSQL, where these run too; the
others, and the browser tests, on SQLite.
"""

import os
from pathlib import Path

import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "postgres: needs PostgreSQL (runs when DATABASE_URL is set)")
    config.addinivalue_line(
        "markers", "database: touches the test database (set from the test's fixtures and marks)"
    )


DATABASE_FIXTURES = {"db", "transactional_db", "django_db_setup", "live_server"}


@pytest.hookimpl(tryfirst=True)  # before -m reads the marks it adds
def pytest_collection_modifyitems(config, items):
    from django.conf import settings

    # The rules, the bots, the settings read in a fresh process...: the same on any database,
    # so the PostgreSQL pass of CI leaves them out, and the SQLite pass keeps only them and the
    # browser tests (.ci/run).
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if item.get_closest_marker("django_db") or fixtures & DATABASE_FIXTURES:
            item.add_marker(pytest.mark.database)

    if "postgresql" in settings.DATABASES["default"]["ENGINE"]:
        return
    keep = [item for item in items if item.get_closest_marker("postgres") is None]
    if len(keep) < len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in keep])
        items[:] = keep


def pytest_terminal_summary(terminalreporter):
    """Says when the browser tests were skipped. Here, not in tests/browser/conftest.py: with
    pytest-xdist, the process that reports loads only this conftest."""
    from tests.browser.conftest import CHROMIUM_MISSING

    skipped = [
        r for r in terminalreporter.stats.get("skipped", []) if CHROMIUM_MISSING in str(r.longrepr)
    ]
    if skipped:
        terminalreporter.write_line(
            f"Browser tests skipped ({len(skipped)}): {CHROMIUM_MISSING}", yellow=True
        )


# A task is never parked in the broker: no ETA or countdown further ahead than this (issue 30).
FARTHEST_ETA_SECONDS = 5


def _near(options: dict) -> bool:
    from datetime import UTC, datetime

    from games import clock

    countdown, eta = options.get("countdown"), options.get("eta")
    if countdown is not None and countdown > FARTHEST_ETA_SECONDS:
        return False
    if eta is not None:
        now = clock.now() if eta.tzinfo else datetime.now(UTC).replace(tzinfo=None)
        return (eta - now).total_seconds() <= FARTHEST_ETA_SECONDS
    return True


@pytest.fixture(autouse=True)
def no_far_eta(monkeypatch):
    """Every test fails if any task is sent with an ETA or a countdown more than a few seconds
    ahead (such a message waits unacknowledged in a worker, and is lost or restored in a heap
    when the broker goes away)."""
    from celery.app.task import Task

    apply_async = Task.apply_async
    far = []

    def checked(self, args=None, kwargs=None, **options):
        if not _near(options):
            far.append(f"{self.name} sent for later: {options}")
            raise AssertionError(far[-1])  # and at the end, should a caller swallow it
        return apply_async(self, args, kwargs, **options)

    monkeypatch.setattr(Task, "apply_async", checked)
    yield far
    assert not far


@pytest.fixture
def on_postgres(settings):
    assert "postgresql" in settings.DATABASES["default"]["ENGINE"]


@pytest.fixture(autouse=True)
def tick_forgets():
    """The live tick remembers, in its process, which stalled turns it queued again: each test
    starts with none (the games' ids come round again)."""
    from games.actions import deadlines

    deadlines._requeued.clear()


@pytest.fixture(autouse=True)
def broker_presumed_up():
    """``games.queue`` stops trying a broker that failed for a few seconds: each test starts
    with the broker presumed up."""
    from games import queue

    queue.broker_back()
    yield
    queue.broker_back()


@pytest.fixture(autouse=True)
def redis_afresh():
    """``games.live`` keeps its Redis client (made from ``REDIS_URL`` at its first use) and
    whether Redis failed lately, and counts the streams open in the process; the shared cache
    remembers whether its Redis failed. Each test starts, and leaves, with neither client nor
    failure nor stream, so that a test that changes ``REDIS_URL`` reaches that Redis."""
    from common import cache
    from games import live

    live.reset()
    cache.reset()
    yield
    live.reset()
    cache.reset()


@pytest.fixture(autouse=True)
def joins_allowed():
    """Each test starts with Celery's "a join would block" flag down. An eager task raises it
    while it runs and, on leaving, puts back the value it found; the flag is one for the whole
    process, so two threads running eager tasks at once (the concurrency tests) can leave it
    raised, and a later test's ``.delay(...).get()`` in that process then fails. Celery's
    public ``allow_join_result`` lowers it for the test."""
    from celery.result import allow_join_result

    with allow_join_result():
        yield


@pytest.fixture(autouse=True)
def english_first():
    """A French page leaves French active in the thread that served it (LocaleMiddleware
    activates a language and nothing deactivates it): each test starts in the default language."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fresh_cache():
    """Rate limits count in the cache: each test starts with none counted."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """SQLite tests use a database file, not memory: the browser tests' live server and the test
    itself then wait for each other's writes (the settings' busy timeout) instead of failing at
    once on a locked table, as a shared in-memory database does. PostgreSQL is unchanged."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        folder = Path("/dev/shm") if Path("/dev/shm").is_dir() else tmp_path_factory.mktemp("db")
        database.setdefault("TEST", {})["NAME"] = str(folder / f"nyet-test-{os.getpid()}.sqlite3")


class EmailsInsideTransactions(list):
    """The subjects of the emails sent while a transaction of the site's own was open (the one a
    test wraps itself in does not count)."""

    def watch(self, send):
        from django.db import connections

        def send_messages(backend, messages):
            if any(
                not getattr(block, "_from_testcase", False)
                for connection in connections.all(initialized_only=True)
                for block in connection.atomic_blocks
            ):
                self.extend(message.subject for message in messages)
            return send(backend, messages)

        return send_messages


@pytest.fixture(autouse=True)
def emails_inside_transactions(monkeypatch):
    """Every test fails that sends an email inside a transaction: a slow mail server would hold
    the rows it locked, or SQLite's write lock, for as long as it takes. Email goes out after
    the commit (games/notifications.py)."""
    from django.core.mail.backends import locmem, smtp

    sent = EmailsInsideTransactions()
    for backend in (locmem.EmailBackend, smtp.EmailBackend):
        monkeypatch.setattr(backend, "send_messages", sent.watch(backend.send_messages))
    yield sent
    assert not sent, f"emails sent inside a transaction: {list(sent)}"


PASSWORD = "a long passphrase 42"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """MD5 in the tests: the site's PBKDF2 takes 0.3 s a password here, and most tests make two
    or three people. A process a test starts (uvicorn, a worker) keeps the site's hashers, so
    its people log in with a session made here (``force_login``), never a password."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_person(db):
    def make(name: str = "alice", **fields):
        from accounts.models import User

        return User.objects.create_user(
            username=name, email=f"{name}@example.com", password=PASSWORD, **fields
        )

    return make


@pytest.fixture
def alice(make_person):
    return make_person("alice")


@pytest.fixture
def bob(make_person):
    return make_person("bob")


@pytest.fixture
def carol(make_person):
    return make_person("carol")


@pytest.fixture
def act(django_capture_on_commit_callbacks):
    """Run an action as a request would: its on-commit work (bot turns) runs after it."""

    def run(action, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return action(*args, **kwargs)

    return run
