"""`make run`: the Procfile starts the site, a real Celery worker, beat and the live tick, with
the embedded SQLite broker by default, and starts again any of them that exits; the tests
themselves run tasks in-process."""

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from nyet_site import celery_app
from tests.environment import OUR_VARIABLES, settings_with
from tests.servers import free_port

PROJECT_DIR = Path(__file__).resolve().parent.parent


def procfile() -> dict[str, str]:
    lines = (PROJECT_DIR / "Procfile.dev").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if line.strip())


AGAIN = re.compile(
    r"trap exit INT TERM; while :; do (?P<command>.+); "
    r'echo "exited \(\$\?\): restarting in 1 s"; sleep 1; done'
)


def command_of(line: str) -> str:
    """The command a Procfile.dev line starts (and starts again)."""
    return AGAIN.fullmatch(line)["command"]


def without_reloading(line: str) -> str:
    """A test changes no code: uvicorn's watcher would only cost time."""
    return re.sub(r" --reload(-dir \w+)?", "", line)


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

    assert set(processes) == {"web", "worker", "beat", "tick"}
    # Each line starts its command again a second after it exits: honcho stops every process
    # as soon as one exits, and one crash would stop the site.
    processes = {name: command_of(line) for name, line in processes.items()}
    assert "celery -A nyet_site beat" in processes["beat"]
    assert processes["tick"] == "PYTHONUNBUFFERED=1 .venv/bin/python manage.py tick"
    # An ASGI server: open game pages wait for their events without holding a thread each. It
    # listens on the PORT honcho gives the first process (make run's PORT), and gives open
    # event streams a second to end before it stops (they never end by themselves).
    assert (
        "uvicorn nyet_site.asgi:application --host 127.0.0.1 --port ${PORT:-8000} "
        "--timeout-graceful-shutdown 1 " in processes["web"]
    )
    # One task at a time: SQLite takes one writer at a time. Every queue: one worker does all.
    assert "celery -A nyet_site worker --pool=solo" in processes["worker"]
    assert "--queues=play,think,catchup,email,sweep" in processes["worker"]


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


def test_the_procfile_web_process_serves_pages_events_and_static_files(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in OUR_VARIABLES}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=PROJECT_DIR, env=env, check=True
    )
    # as `make run` starts it (honcho gives it the PORT), less the reloading (a test changes no
    # code)
    port = free_port()
    env["PORT"] = str(port)
    command = without_reloading(procfile()["web"])
    log = tmp_path / "web.log"
    with log.open("w") as out:
        web = subprocess.Popen(
            command,
            shell=True,
            cwd=PROJECT_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        # uvicorn says "startup complete" before it binds the port; "running on" comes after
        wait_for(log, "Uvicorn running on", seconds=60)
        base = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(f"{base}/") as page:
            assert page.status == 200 and b"Nyet!" in page.read()
        with urllib.request.urlopen(f"{base}/static/css/site.css") as css:
            assert css.status == 200 and css.headers["Content-Type"].startswith("text/css")
        os.killpg(web.pid, signal.SIGTERM)  # what honcho sends on Ctrl-C
        web.wait(timeout=30)
        wait_until_gone(web.pid, seconds=30)
    finally:
        if web.poll() is None:
            os.killpg(web.pid, signal.SIGKILL)
            web.wait()


def test_make_run_starts_again_a_process_that_exits_and_ctrl_c_stops_them_all(tmp_path):
    """Honcho stops every process as soon as one exits: each line of Procfile.dev starts its
    command again instead. Killed, the worker comes back while the site, beat and the tick go
    on; Ctrl-C (SIGINT to honcho, which sends SIGTERM to each process group) still stops
    everything, the restarted worker too, and leaves nothing behind."""
    env = {k: v for k, v in os.environ.items() if k not in OUR_VARIABLES}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    env["CELERY_BROKER_URL"] = f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}"
    env["BEAT_SCHEDULE"] = str(tmp_path / "beat")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=PROJECT_DIR, env=env, check=True
    )
    port = free_port()
    lines = (PROJECT_DIR / "Procfile.dev").read_text()
    (tmp_path / "Procfile.dev").write_text(without_reloading(lines))
    log = tmp_path / "run.log"
    with log.open("w") as out:
        honcho = subprocess.Popen(
            [sys.executable, "-m", "honcho", "--no-colour", "-f", str(tmp_path / "Procfile.dev")]
            + ["start", "--port", str(port)],
            cwd=PROJECT_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # a terminal's Ctrl-C reaches honcho alone, as here
        )
    groups = {}
    try:
        for text in ("Uvicorn running on", " ready.", "beat: Starting", "live tick every"):
            wait_for(log, text, seconds=90)
        groups = {
            name: int(pid)
            for name, pid in re.findall(r"(\w+)\.1 started \(pid=(\d+)\)", log.read_text())
        }
        assert set(groups) == {"web", "worker", "beat", "tick"}
        before = {name: children(pid) for name, pid in groups.items()}
        (worker,) = before["worker"]

        os.kill(worker, signal.SIGKILL)
        text = wait_for(log, "worker.1 | exited (137): restarting in 1 s", seconds=30)
        assert text.count(" ready.") == 1
        deadline = time.monotonic() + 90
        while log.read_text().count(" ready.") < 2:
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        after = {name: children(pid) for name, pid in groups.items()}
        assert after["worker"] != before["worker"] and len(after["worker"]) == 1
        assert {n: c for n, c in after.items() if n != "worker"} == {
            n: c for n, c in before.items() if n != "worker"
        }, "the others went on, untouched"
        assert ".1 stopped" not in log.read_text()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as page:
            assert page.status == 200

        honcho.send_signal(signal.SIGINT)  # Ctrl-C
        honcho.wait(timeout=30)
        for group in groups.values():
            wait_until_gone(group, seconds=10)
    finally:
        if honcho.poll() is None:
            honcho.kill()
        for group in groups.values():
            try:
                os.killpg(group, signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert "SIGINT received" in log.read_text()


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (a Procfile.dev line's shell: the command it runs)."""
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return sorted(int(child) for child in found.stdout.split())


# An email that the worker writes (its links are the worker's SITE_URL), queued from a process
# of its own whose SITE_URL is the default, port 8000.
QUEUE_AN_EMAIL = """
from datetime import timedelta

from django.db import transaction

from accounts.models import User
from games import clock
from games.actions.notify import queue_emails
from games.models import Vacation

now = clock.now()
vera = User.objects.create_user("vera", email="vera@example.com")
vacation = Vacation.objects.create(user=vera, started_at=now, ends_at=now + timedelta(hours=12))
with transaction.atomic():
    queue_emails([("vacation_ending", [vacation.pk])])
"""


def test_make_run_honours_port_and_one_ctrl_c_stops_everything_within_5_s(tmp_path):
    """The real `make run` on a free PORT, from a fresh database: setup_demo says at most 10
    lines, with links on that port; the site answers there, the worker's emails link there
    (honcho gives the worker a PORT of its own: the Makefile sets SITE_URL from make's), and
    with a game page's event stream open (which never ends by itself), one Ctrl-C (SIGINT to
    the terminal's foreground group: make and honcho) stops every process within 5 s."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in OUR_VARIABLES}
    env |= {
        "PORT": str(port),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "CELERY_BROKER_URL": f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}",
        "BEAT_SCHEDULE": str(tmp_path / "beat"),
    }
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "run.log"
    with log.open("w") as out:
        make = subprocess.Popen(
            # -o: the test runs in the venv it has, whatever the lock's date
            ["make", "--no-print-directory", "-o", ".venv/.installed", "run"],
            cwd=PROJECT_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # a group of its own, as a terminal's foreground job
        )
    processes, stream = {}, None
    try:
        # Under --reload the watcher says "Uvicorn running" before its server process has
        # started; "Application startup complete." is the server's own (a busy machine took
        # more than 9 s between the two, and the site refused the test's first request)
        waited = (f"Uvicorn running on {base}", "Application startup complete.", " ready.")
        for text in (*waited, "beat: Starting", "live tick every"):
            wait_for(log, text, seconds=240)
        text = log.read_text()
        demo = text.split("manage.py setup_demo\n", 1)[1].split("honcho -f Procfile.dev", 1)[0]
        assert len(demo.splitlines()) <= 10, demo
        assert f"at {base}/accounts/login/\n" in demo
        game = re.search(rf"waiting for its move at {base}/games/(\d+)/\n", demo)[1]
        assert f"honcho -f Procfile.dev start --port {port}\n" in text

        with urllib.request.urlopen(f"{base}/", timeout=30) as page:
            assert page.status == 200 and b"Nyet!" in page.read()
        stream = urllib.request.urlopen(f"{base}/games/{game}/events/", timeout=30)
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        assert stream.read1(1000).strip()  # its first event: the stream is open

        subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", QUEUE_AN_EMAIL],
            cwd=PROJECT_DIR,
            env={k: v for k, v in env.items() if k != "PORT"},
            check=True,
            timeout=120,
        )
        email = wait_for(log, "Unsubscribe from these emails</a>", seconds=60)
        assert f'<a href="{base}/unsubscribe/' in email
        assert "127.0.0.1:8000" not in email

        processes = descendants(make.pid)
        names = " ".join(processes.values())
        for name in ("honcho", "uvicorn", "celery -A nyet_site worker", "beat", "manage.py tick"):
            assert name in names, processes

        os.killpg(make.pid, signal.SIGINT)  # Ctrl-C
        stopped = time.monotonic()
        left = dict(processes)
        while left and time.monotonic() - stopped < 5:
            make.poll()  # make is this test's child: gone once reaped
            left = {pid: args for pid, args in left.items() if not gone(pid)}
            time.sleep(0.05)
        took = time.monotonic() - stopped
        assert not left, f"still running {took:.1f} s after Ctrl-C: {left}\n{log.read_text()}"
        assert make.wait(timeout=5) != 0  # interrupted
        assert "SIGINT received" in log.read_text()
    finally:
        if stream is not None:
            stream.close()
        # honcho starts each process in a session of its own: a failure midway must not leave
        # them running, so each is found (now, if not yet) and stopped by its number
        if make.poll() is None:
            processes |= descendants(make.pid)
            os.killpg(make.pid, signal.SIGKILL)
        for pid in processes:
            if not gone(pid):  # (a gone one's number may be another process's by now)
                os.kill(pid, signal.SIGKILL)
        make.wait()


def descendants(pid: int) -> dict[int, str]:
    """Every process ``pid`` started, and theirs, with their command lines (``pid`` too)."""
    listing = subprocess.run(
        ["ps", "-ww", "-eo", "pid=,ppid=,args="], capture_output=True, text=True
    )
    children: dict[int, list[tuple[int, str]]] = {}
    for line in listing.stdout.splitlines():
        child, parent, args = line.split(None, 2)
        children.setdefault(int(parent), []).append((int(child), args))
    found, todo = {pid: "make"}, [pid]
    while todo:
        for child, args in children.get(todo.pop(), []):
            found[child] = args
            todo.append(child)
    return found


def gone(pid: int) -> bool:
    """Exited: no such process, or a zombie waiting for its parent to reap it."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rpartition(")")[2].split()[0] == "Z"
