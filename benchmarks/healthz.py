"""How long ``/healthz`` takes to answer with the broker up, refused and silent (issue 30).

    .venv/bin/python benchmarks/healthz.py [--requests 20] [--database nyet_healthz]

The site in-process (Django's test client, through the whole middleware chain) on PostgreSQL,
its own database ``nyet_healthz`` (remade and migrated; ``--database`` names another), with the
broker at:

- Redis up: ``redis://127.0.0.1:6379/0`` (the health check only pings it);
- a closed port: ``redis://127.0.0.1:1/0``, refused at once, as when Redis is stopped;
- a silent server: a port that accepts connections and never answers, as an overloaded or
  half-dead Redis (or a firewall that lets the connection through) would.

The goal: under 0.3 s each time, whatever the broker does. Measured here, never asserted in a
test (tests/test_production.py checks the mechanism that bounds it instead).
"""

from __future__ import annotations

import argparse
import logging
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.timing import fmt  # noqa: E402

DATABASE = "nyet_healthz"


def prepare(database: str) -> None:
    import psycopg

    with psycopg.connect("postgresql://root@127.0.0.1:5432/postgres", autocommit=True) as db:
        db.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        db.execute(f"CREATE DATABASE {database}")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NYET_", "DJANGO_"))}
    env.update(
        DATABASE_URL=f"postgresql://root@127.0.0.1:5432/{database}",
        # Redis from the start, so that the settings give the broker Redis's options.
        CELERY_BROKER_URL="redis://127.0.0.1:6379/0",
        CELERY_TASK_ALWAYS_EAGER="true",
        DJANGO_SETTINGS_MODULE="nyet_site.settings",
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    os.environ.clear()
    os.environ.update(env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=20, help="per broker state")
    parser.add_argument("--database", default=DATABASE, help="the PostgreSQL database to (re)make")
    options = parser.parse_args()
    prepare(options.database)

    import django

    django.setup()
    # Celery reads CELERY_BROKER_URL from the environment before its settings: gone, the URL
    # set below is the one used.
    del os.environ["CELERY_BROKER_URL"]
    from django.test import Client

    from nyet_site.celery import app

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(1024)  # the kernel completes each connection; nobody ever reads it
    brokers = {
        "Redis up": "redis://127.0.0.1:6379/0",
        "closed port": "redis://127.0.0.1:1/0",
        "silent server": f"redis://127.0.0.1:{silent.getsockname()[1]}/0",
    }
    logging.getLogger("django.request").setLevel(logging.CRITICAL)  # a line for each 503
    client = Client()
    client.get("/healthz")  # the first request imports and connects: not what is measured
    for name, url in brokers.items():
        app.conf.broker_url = url  # read at each check, which pings Redis with its own client
        times, answers = [], set()
        for _ in range(options.requests):
            started = time.perf_counter()
            answer = client.get("/healthz")
            times.append(time.perf_counter() - started)
            answers.add(f"{answer.status_code} {answer.content.decode()}")
        print(f"{name:14} {fmt(times)}  {' | '.join(sorted(answers))}")
    silent.close()


if __name__ == "__main__":
    main()
