"""Real processes for the tests that cross a process boundary: the site under uvicorn on a free
port, stopped within a bound; tasks sent through a real broker; and the waits that go with them
(on a condition, never a fixed time)."""

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import contextmanager, nullcontext
from pathlib import Path

from celery import Celery

from nyet_site.celery import app

ROOT = Path(__file__).resolve().parent.parent

# Seconds uvicorn lets open event streams run on after SIGTERM (as ``make run`` does): a stream
# whose reader went away under a loaded machine must not hold the next test for minutes.
GRACE = 2
# The application_name of the database sessions of a process started by ``serve``.
SERVED = "nyet-served"


def procfile(name: str) -> dict[str, str]:
    """The commands of a Procfile (``Procfile``, ``Procfile.dev``) by process name."""
    lines = (ROOT / name).read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if line.strip())


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(condition: Callable[[], object], seconds: float = 60, every: float = 0.05) -> bool:
    """Whether ``condition()`` came true within ``seconds`` (asked every ``every`` seconds)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(every)
    return bool(condition())


def serve(
    database: str, redis_url: str, tmp_path: Path, **env_vars: str
) -> tuple[subprocess.Popen, int]:
    """The site under uvicorn on PostgreSQL's ``database`` (the test's), with Redis at
    ``redis_url`` ("" for none), once it accepts connections; its output in tmp_path/web.log."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"postgresql://root@127.0.0.1:5432/{database}",
        "REDIS_URL": redis_url,
        "CELERY_BROKER_URL": "memory://",
        "PGAPPNAME": SERVED,  # libpq names its connections: stop() waits for these alone
        **env_vars,
    }
    command = [sys.executable, "-m", "uvicorn", "nyet_site.asgi:application", "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--timeout-graceful-shutdown", str(GRACE)],
        cwd=ROOT,
        env=env,
        stdout=(tmp_path / "web.log").open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )

    def accepts() -> bool:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            return server.poll() is not None  # it died: say so below, without waiting on

    if not wait_for(accepts, seconds=60, every=0.1) or server.poll() is not None:
        raise AssertionError((tmp_path / "web.log").read_text())
    return server, port


def stop(server: subprocess.Popen, connection=None) -> None:
    """Stop a process started in its own session (``serve``, a worker): SIGTERM, then SIGKILL if
    it is still there after its grace; then, given the test's database ``connection``, wait
    until the process's database sessions are gone (so that the test database can go)."""
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=GRACE + 20)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=30)
    if connection is not None:
        wait_for_sessions_to_close(connection)


def wait_for_sessions_to_close(connection, seconds: float = 10) -> None:
    """Until the served processes' database sessions are gone (so that the test database can
    go). This process's own pool keeps an idle session of its own: not waited for."""

    def closed() -> bool:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND application_name = %s",
                [SERVED],
            )
            return cursor.fetchone()[0] == 0

    assert wait_for(closed, seconds, every=0.1), "the served process's sessions stayed open"


_current = [app]  # the app current in each block opened, the innermost last


@contextmanager
def broker(url: str | None):
    """Tasks really go through ``url`` (not eagerly in-process) inside the block, sent by a
    Celery app of their own, current for the block: an app keeps the connections it has made
    for good, so the site's app is never pointed elsewhere. With None, the site's app (eager in
    the tests), as in a block within another. The app current before is current after."""
    with nullcontext(app) if url is None else Celery(app.main, set_as_current=False) as through:
        if url is not None:
            through.config_from_object("django.conf:settings", namespace="CELERY")
            through.conf.update(broker_url=url, task_always_eager=False)
        through.set_current()
        _current.append(through)
        try:
            yield
        finally:
            _current.pop()
            _current[-1].set_current()
