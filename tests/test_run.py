"""`make run`: the Procfile starts the site and a real Celery worker, with the embedded SQLite
broker by default; the tests themselves run tasks in-process."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from nyet_site import celery_app
from tests.test_settings import OUR_VARIABLES, settings_with

PROJECT_DIR = Path(__file__).resolve().parent.parent


def procfile() -> dict[str, str]:
    lines = (PROJECT_DIR / "Procfile").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if line.strip())


def wait_for(path: Path, text: str, seconds: float) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        log = path.read_text()
        if text in log:
            return log
        time.sleep(0.2)
    raise AssertionError(f"{text!r} not in the log after {seconds}s:\n{path.read_text()}")


def wait_until_gone(group: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        time.sleep(0.2)
    raise AssertionError(f"process group {group} still runs after {seconds}s")


def test_the_tests_run_tasks_in_process():
    assert celery_app.conf.task_always_eager is True


def test_eager_tasks_can_be_asked_for_with_the_embedded_broker():
    loaded = settings_with(CELERY_TASK_ALWAYS_EAGER="true")

    assert loaded["broker_url"].startswith("sqla+sqlite:///")
    assert loaded["task_always_eager"] is True


def test_the_procfile_serves_the_site_and_runs_a_worker():
    processes = procfile()

    assert set(processes) == {"web", "worker", "beat"}
    assert "celery -A nyet_site beat" in processes["beat"]
    assert "manage.py runserver 127.0.0.1:8000" in processes["web"]
    # One task at a time: SQLite takes one writer at a time.
    assert "celery -A nyet_site worker --pool=solo" in processes["worker"]


def test_the_procfile_worker_runs_tasks_sent_through_a_sqlite_broker(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in OUR_VARIABLES}
    env["CELERY_BROKER_URL"] = f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}"
    log = tmp_path / "worker.log"
    with log.open("w") as out:
        worker = subprocess.Popen(
            procfile()["worker"],
            shell=True,
            cwd=PROJECT_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # as honcho starts it, so a signal reaches the whole group
        )
    try:
        wait_for(log, "ready.", seconds=60)
        subprocess.run(
            [
                sys.executable,
                "-c",
                "import django; django.setup(); "
                "from nyet_site.celery import debug_task; debug_task.delay('sent by the test')",
            ],
            cwd=PROJECT_DIR,
            env=env,
            check=True,
            timeout=60,
        )
        text = wait_for(log, "succeeded", seconds=30)
        assert "debug_task: sent by the test" in text
        assert f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}" in text

        os.killpg(worker.pid, signal.SIGTERM)  # what honcho sends on Ctrl-C
        worker.wait(timeout=30)
        wait_until_gone(worker.pid, seconds=30)
        assert "Warm shutdown" in log.read_text()
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()
