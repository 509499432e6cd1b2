"""The production profile (issue 15): Django's deployment checks pass, the health check says
when the database is down, static files get hashed names and long cache headers, no email is
sent while a transaction is open, and the Procfile's processes, started as a host starts them,
serve a game that a bot answers."""

import http.cookiejar
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest

from games.push import generate_keys
from tests.servers import free_port, procfile

ROOT = Path(__file__).resolve().parent.parent
KEY = secrets.token_urlsafe(50)
VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY = generate_keys()  # the deployment checks want a pair
PRODUCTION = {
    "NYET_ENV": "production",
    "SECRET_KEY": KEY,
    "DEBUG": "false",
    "SITE_URL": "https://nyet.example.org",
    "ALLOWED_HOSTS": "nyet.example.org,127.0.0.1",
    "VAPID_PUBLIC_KEY": VAPID_PUBLIC_KEY,
    "VAPID_PRIVATE_KEY": VAPID_PRIVATE_KEY,
}


def production_env(**more) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NYET_", "DJANGO_"))}
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER"):
        env.pop(name, None)
    return {**env, **PRODUCTION, **more}


def test_the_build_gathers_the_static_files_and_passes_the_deployment_checks(tmp_path):
    """`make build`, as a host runs it with the production environment (-o: with the project
    installed as it is)."""
    done = subprocess.run(
        ["make", "-o", ".venv/.installed", "build"],
        cwd=ROOT,
        env=production_env(STATIC_ROOT=str(tmp_path / "static")),
        capture_output=True,
        text=True,
        timeout=300,  # collectstatic: half a minute on a busy machine
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "static" / "staticfiles.json").exists()
    assert "System check identified no issues (0 silenced)." in done.stdout


def test_the_health_check_answers_a_load_balancer_in_production(tmp_path):
    """Over plain HTTP, with the machine's IP address as Host, with or without the slash: what a
    load balancer sends. A page asked over plain HTTP is redirected to HTTPS."""
    script = """
import django
django.setup()
from django.test import Client
client = Client()
for path in ["/healthz", "/healthz/"]:
    answer = client.get(path, HTTP_HOST="10.0.0.5")
    print(path, answer.status_code, answer.content.decode())
page = client.get("/rules/", HTTP_HOST="nyet.example.org")
print("/rules/", page.status_code, page["Location"])
"""
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=production_env(
            DJANGO_SETTINGS_MODULE="nyet_site.settings",
            DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
            CELERY_BROKER_URL=f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}",
        ),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    # Unmigrated: the emails of unknown fate cannot be counted, and the site is healthy still.
    healthy = '{"database": "ok", "broker": "ok", "emails_of_unknown_fate": null}'
    assert done.stdout.splitlines() == [
        f"/healthz 200 {healthy}",
        f"/healthz/ 200 {healthy}",
        "/rules/ 301 https://nyet.example.org/rules/",
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/healthz", "/healthz/"])
def test_the_health_check_says_when_the_database_is_down(client, monkeypatch, path):
    healthy = client.get(path)
    assert healthy.status_code == 200
    assert healthy.json() == {"database": "ok", "broker": "ok", "emails_of_unknown_fate": 0}

    from django.db.backends.base.base import BaseDatabaseWrapper

    def down(self, *args, **kwargs):
        raise ConnectionRefusedError("the database is down")

    monkeypatch.setattr(BaseDatabaseWrapper, "cursor", down)
    sick = client.get(path, HTTP_HOST="10.0.0.5")
    assert sick.status_code == 503 and sick.json()["database"].startswith("unreachable")
    assert sick.json()["emails_of_unknown_fate"] is None


@pytest.mark.django_db
def test_the_health_check_answers_in_an_async_middleware_chain(rf):
    """Placed first, it must not make an async chain sync (one thread hop per request, the game
    streams' included): with an async handler behind it, it answers asynchronously."""
    from asgiref.sync import async_to_sync
    from django.http import HttpResponse

    from nyet_site.observability import HealthCheckMiddleware

    async def page(request):
        return HttpResponse("the page")

    health = HealthCheckMiddleware(page)
    assert health.is_async
    answer = async_to_sync(health)(rf.get("/healthz"))
    assert answer.status_code == 200 and json.loads(answer.content)["broker"] == "ok"
    assert async_to_sync(health)(rf.get("/rules/")).content == b"the page"


@contextmanager
def redis_connections():
    """Each connection opened to Redis inside the block, as (connect timeout, reply timeout)."""
    import redis.connection

    attempts = []
    connect = redis.connection.Connection._connect

    def counted(self):
        attempts.append((self.socket_connect_timeout, self.socket_timeout))
        return connect(self)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(redis.connection.Connection, "_connect", counted)
        yield attempts


# No timed asserts (a shared machine's pauses would make them fail at random): the tests check
# what bounds the check's time, one attempt with short timeouts; benchmarks/healthz.py measures
# it (BENCHMARKS.md: about 1 ms with Redis down, 0.1 s with a Redis that never answers, where
# kombu's retries took 2 s).
@pytest.mark.django_db
def test_the_health_check_says_at_once_when_the_broker_is_down(client):
    from nyet_site.observability import BROKER_CHECK_TIMEOUT
    from tests.servers import broker

    with broker("redis://127.0.0.1:1/0"), redis_connections() as attempts:
        sick = client.get("/healthz")
    assert sick.status_code == 503
    assert sick.json()["broker"] == "unreachable: ConnectionError"
    assert attempts == [(BROKER_CHECK_TIMEOUT, BROKER_CHECK_TIMEOUT)], "once, no retry"
    assert 2 * BROKER_CHECK_TIMEOUT < 0.3, "a connection and a reply, within the goal"


@pytest.mark.django_db
def test_a_broker_that_never_answers_costs_the_health_check_one_short_wait(client):
    """A port that takes the connection and never answers (an overloaded or half-dead Redis):
    the ping's reply is waited for once, BROKER_CHECK_TIMEOUT."""
    from nyet_site.observability import BROKER_CHECK_TIMEOUT
    from tests.servers import broker

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # the kernel completes the connection; nobody reads it
        url = f"redis://127.0.0.1:{silent.getsockname()[1]}/0"
        with broker(url), redis_connections() as attempts:
            sick = client.get("/healthz")
    assert sick.status_code == 503
    assert sick.json()["broker"] == "unreachable: TimeoutError"
    assert attempts == [(BROKER_CHECK_TIMEOUT, BROKER_CHECK_TIMEOUT)], "once, no retry"


@pytest.mark.django_db
def test_the_health_check_pings_a_redis_broker(client):
    from tests.servers import broker

    with broker("redis://127.0.0.1:6379/10"), redis_connections() as attempts:
        healthy = client.get("/healthz/")
    assert healthy.status_code == 200
    assert healthy.json()["broker"] == "ok"
    assert len(attempts) == 1


@pytest.mark.django_db(transaction=True)
def test_no_email_is_sent_while_a_transaction_is_open(
    monkeypatch, django_user_model, emails_inside_transactions
):
    """Played for real (no test transaction around it): every email of a whole game (started,
    your turn, reminders, timeouts, game over) goes out with no transaction open, so a slow
    mail server never holds a row or SQLite's write lock."""
    from django.core import mail

    from games import clock as site_clock
    from games.actions import create_game
    from games.actions.deadlines import due
    from games.models import Game

    now = [site_clock.now()]
    monkeypatch.setattr(site_clock, "now", lambda: now[0])
    alice = django_user_model.objects.create_user("alice", "alice@example.com", "pw")
    game = create_game(alice, players=2, bots=["easy"], target=1, move_seconds=60)
    for _ in range(500):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        now[0] += timedelta(seconds=50)  # her reminders, then her timeouts
        due()
    assert game.status == Game.Status.FINISHED
    subjects = [m.subject for m in mail.outbox]
    assert any(s.startswith("Reminder") for s in subjects), subjects
    assert any(s.startswith("A bot moved for you") for s in subjects), subjects
    assert emails_inside_transactions == []


@pytest.mark.django_db
def test_the_tests_fail_when_an_email_is_sent_inside_a_transaction(emails_inside_transactions):
    """The guard every test runs under (tests/conftest.py) sees the site's transactions, and
    not the one the test runs in."""
    from django.core.mail import send_mail
    from django.db import transaction

    send_mail("Outside", "", None, ["bob@example.com"])
    with transaction.atomic():
        send_mail("Inside", "", None, ["bob@example.com"])
    with transaction.atomic(), transaction.atomic():
        send_mail("Deeper", "", None, ["bob@example.com"])
    assert emails_inside_transactions == ["Inside", "Deeper"]
    emails_inside_transactions.clear()  # caught: the test passes


def test_static_files_have_hashed_names_and_ten_years_of_cache_and_cookies_httponly(tmp_path):
    static = tmp_path / "static"
    script = """
import django
django.setup()
from django.core.management import call_command
call_command("collectstatic", "--noinput", verbosity=0)
from django.templatetags.static import static
from django.test import Client
url = static("css/site.css")
client = Client(headers={"X-Forwarded-Proto": "https"})
plain = client.get(url, HTTP_HOST="nyet.example.org")
zipped = client.get(url, HTTP_HOST="nyet.example.org", HTTP_ACCEPT_ENCODING="gzip")
print("=" + "|".join([url, str(plain.status_code), plain["Cache-Control"],
                zipped.get("Content-Encoding", "")]))
page = client.get("/accounts/login/", HTTP_HOST="nyet.example.org")
token = page.cookies["csrftoken"]
print("=", page.status_code, token["httponly"] and "httponly", token["secure"] and "secure")
import json, re
worker = client.get("/sw.js", HTTP_HOST="nyet.example.org")
kept = json.loads(re.search(r"^const KEPT = (\\[.*\\]);$", worker.content.decode(), re.M)[1])
kept_answers = {client.get(u, HTTP_HOST="nyet.example.org").status_code for u in kept}
hashed = all(re.search(r"\\.[0-9a-f]{12}\\.[a-z]+$", u) for u in kept)
print("=", worker.status_code, *sorted(kept_answers), hashed and "hashed")
"""
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=production_env(
            DJANGO_SETTINGS_MODULE="nyet_site.settings",
            STATIC_ROOT=str(static),
            DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        ),
        capture_output=True,
        text=True,
        timeout=300,  # collectstatic: half a minute on a busy machine
    )
    assert done.returncode == 0, done.stderr
    # The lines the script printed, among the request log's.
    static_line, page_line, worker_line = [
        line[1:].strip() for line in done.stdout.splitlines() if line[0] == "="
    ]
    url, status, cache, encoding = static_line.split("|")
    assert re.fullmatch(r"/static/css/site\.[0-9a-f]{12}\.css", url), url
    assert status == "200"
    assert "max-age=315360000" in cache and "immutable" in cache, cache  # ten years
    assert encoding == "gzip"
    # Kept fast: only the hashed copies, and source maps (megabytes of them, for the API's
    # documentation page) are not compressed.
    assert not (static / "css" / "site.css").exists()
    maps = list(static.rglob("*.map"))
    assert maps and not [p for p in static.rglob("*.map.*") if p.suffix in (".gz", ".br")]
    # No script reads the CSRF cookie (htmx sends the token from the page).
    assert page_line == "200 httponly secure"
    # The service worker keeps the files under the names the pages ask for, which are served.
    assert worker_line == "200 200 hashed"


def test_sentry_reports_the_errors_of_the_site_and_the_workers_when_its_dsn_is_set():
    script = """
import django
django.setup()
import sentry_sdk
client = sentry_sdk.get_client()
print(client.is_active(), client.dsn, client.options["environment"],
      client.options["send_default_pii"], sorted({"django", "celery"} & set(client.integrations)))
"""
    dsn = "https://public@sentry.example.org/1"  # init only reads it: nothing is sent

    def started(**more):
        return subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env=production_env(DJANGO_SETTINGS_MODULE="nyet_site.settings", **more),
            capture_output=True,
            text=True,
            timeout=120,
        )

    on, off = started(SENTRY_DSN=dsn), started()
    assert on.returncode == 0 and off.returncode == 0, on.stderr + off.stderr
    assert on.stdout.split("\n")[-2] == f"True {dsn} production False ['celery', 'django']"
    assert off.stdout.split("\n")[-2].startswith("False None")


def queues(command: str) -> set[str]:
    return set(re.search(r"--queues=(\S+)", command)[1].split(","))


def test_the_procfile_keeps_email_away_from_the_bots_moves():
    """A slow mail server never delays a bot's reply: the play worker takes its one queue, the
    routes send bots' moves to it and email elsewhere, and every queue has a worker."""
    from django.conf import settings

    routes = {task: route["queue"] for task, route in settings.CELERY_TASK_ROUTES.items()}
    assert routes["games.tasks.play_bots"] == settings.CELERY_TASK_DEFAULT_QUEUE == "play"
    assert routes["games.tasks.send_email"] == "email"
    # The Expert's seconds-long moves (correspondence tables) have their own queue and worker.
    assert routes["games.tasks.think"] == "think"
    production = procfile("Procfile")
    assert queues(production["play"]) == {"play"}
    assert queues(production["think"]) == {"think"}
    assert "email" in queues(production["worker"]) and "play" not in queues(production["worker"])
    assert "think" not in queues(production["worker"])
    routed = set(routes.values()) | {settings.CELERY_TASK_DEFAULT_QUEUE}
    workers = ("play", "think", "worker")
    assert set().union(*(queues(production[name]) for name in workers)) == routed
    assert queues(procfile("Procfile.dev")["worker"]) == routed  # development: one worker


def test_the_systemd_units_run_the_procfile_lines():
    """deploy/systemd: one unit per process, each running its Procfile line as honcho does (and
    so as CI runs it), restarted a second after it exits, however often; Celery's main
    processes alone get the SIGTERM."""
    lines = procfile("Procfile")
    units = {
        path.stem: path.read_text() for path in (ROOT / "deploy" / "systemd").glob("*.service")
    }
    assert set(units) == {f"nyet-{name}" for name in lines if name != "release"}
    for name, command in lines.items():
        if name == "release":
            continue
        unit = units[f"nyet-{name}"]
        started = re.search(r"^ExecStart=/bin/sh -c '(.*)'$", unit, re.MULTILINE)[1]
        # systemd expands % and $ itself: doubled, they reach sh as the Procfile has them.
        assert started.replace("%%", "%").replace("$$", "$") == command, name
        bare = started.replace("%%", "").replace("$$", "")
        assert "%" not in bare and "$" not in bare, name
        assert ("KillMode=mixed" in unit) == (name in ("play", "think", "worker")), name
        assert re.search(r"^Restart=always\nRestartSec=1$", unit, re.MULTILINE), name
        assert re.search(r"^StartLimitIntervalSec=0$", unit, re.MULTILINE), name


def test_a_celery_worker_stops_cleanly_when_its_whole_group_gets_sigterm(tmp_path):
    """As honcho, Heroku and systemd's default KillMode stop it: the pool processes get the
    SIGTERM too, and ignore it (nyet_site/celery.py) instead of dying under the main process's
    warm shutdown ("Process 'ForkPoolWorker-1' exited with 'signal 15'", WorkerLostError)."""
    log = tmp_path / "worker.log"
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "nyet_site", "worker", "-c", "2", "-l", "info"],
        cwd=ROOT,
        env={
            **production_env(),
            "CELERY_BROKER_URL": f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        },
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while " ready." not in log.read_text():
            assert worker.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.5)
        time.sleep(1)  # the pool processes are up (they are forked before "ready")
        os.killpg(worker.pid, signal.SIGTERM)
        assert worker.wait(timeout=60) == 0, log.read_text()
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
    printed = log.read_text()
    assert "Warm shutdown" in printed
    assert "ERROR" not in printed and "Traceback" not in printed, printed


# --- the Procfile, run as a host runs it, on PostgreSQL and Redis -------------------------------


HONCHO = """
import honcho.manager
from honcho.command import main
honcho.manager.KILL_WAIT = 30
main()
"""


class Browser:
    """Just enough of a browser: cookies, CSRF tokens, and the proxy's X-Forwarded-Proto."""

    class BehindTheProxy(http.cookiejar.DefaultCookiePolicy):
        """The proxy ends TLS: the browser spoke HTTPS to it, so its secure cookies go."""

        def return_ok_secure(self, cookie, request):
            return True

    def __init__(self, base: str):
        self.base = base
        self.cookies = http.cookiejar.CookieJar(policy=self.BehindTheProxy())
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def open(self, path: str, data: dict | None = None) -> tuple[int, str, str]:
        headers = {"X-Forwarded-Proto": "https", "Host": "127.0.0.1"}
        body = None
        if data is not None:
            token = next(c.value for c in self.cookies if c.name == "csrftoken")
            body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token}, doseq=True)
            body = body.encode()
            headers["Referer"] = "https://127.0.0.1/"
        request = urllib.request.Request(self.base + path, data=body, headers=headers)
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.url, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.url, error.read().decode()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_procfile_serves_a_game_that_a_bot_answers(
    on_postgres, tmp_path, django_user_model, settings
):
    from allauth.account.models import EmailAddress
    from django.conf import global_settings
    from django.db import connection

    from games import engine
    from games.models import Game

    # alice logs in with her password on the production processes, which hash as the site does
    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS
    alice = django_user_model.objects.create_user("alice", "alice@example.com", "a-long-pass-42")
    EmailAddress.objects.create(user=alice, email=alice.email, verified=True, primary=True)
    port = free_port()
    env = production_env(
        DATABASE_URL=f"postgresql://root@127.0.0.1:5432/{connection.settings_dict['NAME']}",
        REDIS_URL="redis://127.0.0.1:6379/10",
        STATIC_ROOT=str(tmp_path / "static"),
        PORT=str(port),
        BEAT_SCHEDULE=str(tmp_path / "beat"),
        WEB_CONCURRENCY="2",
        BOT_PAUSE_SECONDS="0",
        SWEEP_SECONDS="2",
    )
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=300,  # half a minute on a busy machine
    )
    env["PATH"] = f"{Path(sys.executable).parent}:{env['PATH']}"  # the Procfile's commands
    lines = procfile("Procfile")
    release = subprocess.run(
        lines["release"], shell=True, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert release.returncode == 0 and "No migrations to apply." in release.stdout, release
    log = tmp_path / "procfile.log"
    names = ["web", "play", "think", "worker", "beat", "tick"]
    assert set(lines) == {"release", *names}
    # honcho, as a machine of one's own runs it; given the 30 seconds a platform gives its
    # processes to stop (honcho's own 5 would cut the web server's 20-second grace).
    honcho = [sys.executable, "-c", HONCHO, "-f", "Procfile", "start", *names]
    processes = subprocess.Popen(
        honcho,
        cwd=ROOT,
        env={**env, "PORT": str(port)},
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{base}/healthz", timeout=5) as health:
                    if health.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.5)
        browser = Browser(base)
        status, _, page = browser.open("/accounts/login/")
        assert status == 200
        css = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', page)
        assert css, "hashed static names"
        assert browser.open(css[1])[0] == 200
        status, url, _ = browser.open(
            "/accounts/login/", {"login": "alice", "password": "a-long-pass-42"}
        )
        assert status == 200 and url.endswith("/"), url
        status, url, page = browser.open(
            "/games/new/",
            {"players": "2", "seat_1": "medium", "move_seconds": "live:300"},
        )
        assert status == 200 and re.search(r"/games/\d+/$", url), url
        game = Game.objects.get()

        def her_turn():
            waited = time.monotonic() + 30
            while 0 not in engine.to_act(engine.state_from_json(Game.objects.get().state)):
                assert time.monotonic() < waited, "the bot did not answer:\n" + log.read_text()
                time.sleep(0.1)

        for _ in range(3):  # three moves of hers, each answered by the bot
            her_turn()
            game.refresh_from_db()
            move = engine.view(engine.state_from_json(game.state), 0)["legal"][0]
            kind = next(k for k in move if k != "seat")
            data = {"version": game.version, "kind": kind}
            data.update({"box": ":".join(move[kind])} if kind == "token" else {"card": move[kind]})
            status, _, _ = browser.open(f"/games/{game.pk}/move/", data)
            assert status == 200
        her_turn()  # the bot's last reply is in: nothing is left running
        assert (
            game.moves.filter(by_bot=True).exists() and game.moves.filter(by_bot=False).count() == 3
        )
        waited = time.monotonic() + 60
        while "task sweep" not in log.read_text():  # beat's first sweep, done by the worker
            assert time.monotonic() < waited, "no sweep:\n" + log.read_text()
            time.sleep(0.5)
    finally:
        processes.send_signal(signal.SIGTERM)  # to honcho, which sends it to each process
        processes.wait(timeout=90)
    printed = log.read_text()
    assert "POST /games/" in printed and "move=token" in printed, "one line per request"
    assert "task play_bots game=" in printed, "one line per task"
    assert "tick.1   | " in printed and "live tick every 1.0 s" in printed
    # Each process got the signal itself (the Procfile's `exec`), not a shell in between, and
    # stopped as it should, the tick between two passes: its own exit code, 0.
    stopped = dict(re.findall(r"(\w+)\.1 stopped \(rc=(-?\d+)\)", printed))
    assert stopped == dict.fromkeys(names, "0"), printed
    assert "live tick stopped" in printed
    assert "Traceback" not in printed and "ERROR" not in printed, printed
