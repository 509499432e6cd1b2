"""From a change to its push message leaving the site, on the production profile.

    python benchmarks/push_latency.py [--rounds 60] [--browsers 2] [--every 0.25]

The change is a game's start, by the second player taking the last seat (``join_game``): the
first player, who has ``--browsers`` browsers, is told "Game N has started". The notifications
of every kind take the same way from there (the outbox's row, committed with the change; its
task on the ``email`` queue, which writes the email and one row per browser; each row's task,
which encrypts the message and hands it to the push service). The Procfile's ``worker`` line
serves that queue, with the production settings, PostgreSQL (a database of its own,
``nyet_push_bench``, made afresh and dropped) and Redis (its database 8, flushed) as the
broker. The push service and the mail server run in this process.

Prints the time from the action's return (its transaction committed) to each message's arrival
at the push service: median, 95th percentile and worst, for the first browser and for all.
"""

from __future__ import annotations

import argparse
import os
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.ports import free_port  # noqa: E402

DATABASE = "nyet_push_bench"
REDIS = "redis://127.0.0.1:6379/8"


class Service(ThreadingHTTPServer):
    """A push service that takes every message at once, noting when each arrived."""

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.arrivals: list[tuple[str, float]] = []
        self.lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    server: Service

    def do_POST(self):
        arrived = time.monotonic()
        self.rfile.read(int(self.headers["Content-Length"]))
        with self.server.lock:
            self.server.arrivals.append((self.path, arrived))
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def environment(smtp_port: int) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NYET_", "DJANGO_"))}
    env.update(
        NYET_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(50),
        DEBUG="false",
        SITE_URL="https://nyet.example.org",
        ALLOWED_HOSTS="nyet.example.org",
        DATABASE_URL=f"postgresql://root@127.0.0.1:5432/{DATABASE}",
        REDIS_URL=REDIS,
        CELERY_BROKER_URL=REDIS,
        CELERY_TASK_ALWAYS_EAGER="false",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(smtp_port),
        EMAIL_USE_TLS="false",
        DJANGO_SETTINGS_MODULE="nyet_site.settings",
        PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}",  # the Procfile's commands
    )
    return env


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--browsers", type=int, default=2)
    parser.add_argument("--every", type=float, default=0.25, help="seconds between changes")
    args = parser.parse_args()

    from aiosmtpd.controller import Controller

    class Sink:
        async def handle_DATA(self, server, session, envelope):
            return "250 OK"

    smtp_port = free_port()
    smtp = Controller(Sink(), hostname="127.0.0.1", port=smtp_port)
    smtp.start()
    env = environment(smtp_port)
    os.environ.update(env)

    from benchmarks import databases

    databases.fresh(DATABASE)
    import redis

    redis.Redis.from_url(REDIS).flushdb()

    import django

    django.setup()
    from accounts.models import PushDevice, User
    from games.actions import create_game, join_game
    from games.push import b64encode, generate_keys

    public, private = generate_keys()  # the worker's: it signs the messages
    env.update(VAPID_PUBLIC_KEY=public, VAPID_PRIVATE_KEY=private)

    service = Service()
    threading.Thread(target=service.serve_forever, args=(0.05,), daemon=True).start()
    alice = User.objects.create_user("alice", "alice@example.com", "pw")
    bob = User.objects.create_user("bob", "bob@example.com", "pw")
    browser_key, _ = generate_keys()  # a browser's public point is the same kind of key
    for n in range(args.browsers):
        PushDevice.objects.create(
            user=alice,
            endpoint=f"http://127.0.0.1:{service.server_address[1]}/push/{n}",
            p256dh=browser_key,
            auth=b64encode(os.urandom(16)),
            browser=f"browser {n}",
        )

    folder = Path(tempfile.mkdtemp(prefix="push-bench-"))
    line = dict(
        entry.split(": ", 1) for entry in (ROOT / "Procfile").read_text().splitlines() if entry
    )["worker"]
    log = folder / "worker.log"
    worker = subprocess.Popen(
        line,
        shell=True,
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while " ready." not in log.read_text():
            assert worker.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        first, every = [], []
        for _ in range(args.rounds):
            game = create_game(alice, players=2)
            seen = len(service.arrivals)
            join_game(bob, game.pk)
            changed = time.monotonic()
            until = changed + 30
            while len(service.arrivals) < seen + args.browsers and time.monotonic() < until:
                time.sleep(0.002)
            arrived = sorted(at for _, at in service.arrivals[seen:])
            assert len(arrived) == args.browsers, "a message did not arrive within 30 s"
            first.append(arrived[0] - changed)
            every.extend(at - changed for at in arrived)
            time.sleep(args.every)
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(60)
        smtp.stop()
        service.shutdown()
        from django.db import connections

        connections.close_all()
        databases.drop(DATABASE)

    def ms(values: list[float]) -> str:
        return (
            f"median {statistics.median(values) * 1000:.0f} ms, "
            f"p95 {percentile(values, 0.95) * 1000:.0f} ms, worst {max(values) * 1000:.0f} ms"
        )

    print(f"{args.rounds} games started, {args.browsers} browsers each, every {args.every} s")
    print(f"first browser's message: {ms(first)}")
    print(f"every message:           {ms(every)}")


if __name__ == "__main__":
    main()
