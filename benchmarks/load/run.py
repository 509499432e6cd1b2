"""The load test: the production profile on PostgreSQL and Redis, 100 people at 25 live 4-player
tables (no bots) moving as fast as their turns come, with lobby, profile and game-page visits,
for two minutes (Locust, headless); then a check of the database.

    python benchmarks/load/run.py [--people 100] [--time 2m]

It uses its own database, ``nyet_load`` (created here), and Redis database 11 (emptied). The
site's own rate limits are off: the simulated people move faster than the limit a person meets.
Prints Locust's figures per request kind and the check: every accepted move is in the log once,
each game's moves are numbered 1..N and replay through the engine to the stored state, no game
waits for nobody, and no request failed or answered 5xx.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import resource
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from benchmarks.ports import free_port  # noqa: E402

DATABASE = "nyet_load"
DATABASE_URL = f"postgresql://root@127.0.0.1:5432/{DATABASE}"
REDIS = "redis://127.0.0.1:6379/11"
PRODUCTION = {
    "NYET_ENV": "production",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "DEBUG": "false",
    "SITE_URL": "https://nyet.example.org",
    "ALLOWED_HOSTS": "nyet.example.org,127.0.0.1",
    "DATABASE_URL": DATABASE_URL,
    "REDIS_URL": REDIS,
    "TRUSTED_PROXY_COUNT": "1",
    "RATELIMIT_ENABLE": "false",
    "WEB_CONCURRENCY": "2",
}


def prepare(folder: Path, people: int) -> tuple[dict, Path]:
    import psycopg
    import redis

    with psycopg.connect("postgresql://root@127.0.0.1:5432/postgres", autocommit=True) as db:
        db.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        db.execute(f"CREATE DATABASE {DATABASE}")
    redis.Redis.from_url(REDIS).flushdb()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NYET_", "DJANGO_"))}
    env.pop("CELERY_BROKER_URL", None)
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    env.update(PRODUCTION, STATIC_ROOT=str(folder / "static"), BEAT_SCHEDULE=str(folder / "beat"))
    env["PATH"] = f"{Path(sys.executable).parent}:{env['PATH']}"
    for command in (["migrate", "-v", "0"], ["collectstatic", "--noinput", "-v", "0"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True)
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "nyet_site.settings"
    import django

    django.setup()
    from django.test import Client

    from accounts.models import User
    from games.actions import create_game, join_game

    seats = []
    for table in range(people // 4):
        users = [
            User.objects.create_user(f"p{table}x{i}", f"p{table}x{i}@example.com", "pw")
            for i in range(4)
        ]
        game = create_game(users[0], players=4, move_seconds=600)
        for user in users[1:]:
            join_game(user, game.pk)
        for position, user in enumerate(users):
            client = Client()
            client.force_login(user)
            seats.append(
                {
                    "game": game.pk,
                    "position": position,
                    "username": user.username,
                    "session": client.cookies["sessionid"].value,
                    "csrf": secrets.token_hex(16),
                    "address": f"10.1.{table}.{position + 1}",
                }
            )
    path = folder / "seats.json"
    path.write_text(json.dumps(seats))
    return env, path


def cpu_by_role(site_pid: int) -> dict[str, float]:
    """CPU seconds used so far by each kind of process: the Procfile's, PostgreSQL's backends
    for this database, and Redis."""
    import psutil

    roles: dict[str, float] = {}

    def add(role: str, process) -> None:
        try:
            times = process.cpu_times()
        except psutil.Error:
            return
        roles[role] = roles.get(role, 0.0) + times.user + times.system

    for process in psutil.Process(site_pid).children(recursive=True):
        try:
            line = " ".join(process.cmdline())
        except psutil.Error:
            continue
        for role, mark in ROLES.items():
            if mark in line:
                add(role, process)
                break
    for process in psutil.process_iter(["cmdline", "name"]):
        if DATABASE in " ".join(process.info["cmdline"] or ()):
            add("PostgreSQL", process)
        elif process.info["name"] == "redis-server":
            add("Redis", process)
    return roles


# How each Procfile process says what it is on its command line.
ROLES = {"web": "gunicorn", "play": "--queues=play", "worker": "--queues=catchup", "beat": " beat"}


def check() -> list[str]:
    """What is wrong in the database after the run (nothing, one hopes)."""
    from games import engine
    from games.models import Game

    problems = []
    for game in Game.objects.prefetch_related("moves"):
        moves = sorted(game.moves.all(), key=lambda m: m.number)
        numbers = [m.number for m in moves]
        if numbers != list(range(1, len(moves) + 1)):
            problems.append(f"game {game.pk}: moves numbered {numbers[:5]}...")
        state = engine.state_from_json(game.state)
        replayed = engine.replay(
            game.players, game.seed, game.target, [engine.move_from_json(m.move) for m in moves]
        )
        if engine.state_to_json(replayed) != engine.state_to_json(state):
            problems.append(f"game {game.pk}: the log does not replay to the stored state")
        if game.status == Game.Status.ACTIVE and not engine.to_act(state):
            problems.append(f"game {game.pk}: in play, and nobody is to act")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=100)
    parser.add_argument("--time", default="2m")
    parser.add_argument(
        "--think",
        default="0,0",
        help="seconds a person takes to decide, as 'least,most' (default 0,0: no time at all)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        env, seats = prepare(folder, args.people)
        port = free_port()
        log = folder / "site.log"
        site = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "honcho",
                "-f",
                "Procfile",
                "start",
                "web",
                "play",
                "worker",
                "beat",
            ],
            cwd=ROOT,
            env={**env, "PORT": str(port)},
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 90
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert time.monotonic() < deadline, log.read_text()
                    time.sleep(0.5)
            time.sleep(3)
            counts = folder / "counts.json"
            cpu_before = cpu_by_role(site.pid)
            locust_before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "locust",
                    "-f",
                    str(ROOT / "benchmarks/load/locustfile.py"),
                    "--headless",
                    "-u",
                    str(args.people),
                    "-r",
                    "20",
                    "-t",
                    args.time,
                    "--host",
                    f"http://127.0.0.1:{port}",
                    "--csv",
                    str(folder / "load"),
                    "--only-summary",
                    # each person finishes what they are doing: a move cut off at the end would
                    # count as a failure whose move the site in fact made
                    "--stop-timeout",
                    "15",
                ],
                cwd=ROOT,
                env={
                    **env,
                    "NYET_LOAD_SEATS": str(seats),
                    "NYET_LOAD_DATABASE": DATABASE_URL,
                    "NYET_LOAD_COUNTS": str(counts),
                    "NYET_LOAD_THINK": args.think,
                },
                check=False,
            )
            cpu = {
                role: used - cpu_before.get(role, 0.0)
                for role, used in cpu_by_role(site.pid).items()
            }
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu["Locust"] = (after.ru_utime - locust_before.ru_utime) + (
                after.ru_stime - locust_before.ru_stime
            )
        finally:
            os.killpg(site.pid, signal.SIGTERM)
            site.wait(timeout=60)
        report(folder, counts, cpu)


def report(folder: Path, counts: Path, cpu: dict[str, float]) -> None:
    from games.models import MoveRecord

    rows = list(csv.DictReader((folder / "load_stats.csv").open()))
    failures = 0
    print(
        f"{'request':<12} {'count':>7} {'fail':>5} {'median':>7} {'p95':>6} {'p99':>6} {'max':>6}"
    )
    for row in rows:
        if row["Name"] != "Aggregated":
            failures += int(row["Failure Count"])
        print(
            f"{row['Name']:<12} {row['Request Count']:>7} {row['Failure Count']:>5} "
            f"{row['50%']:>7} {row['95%']:>6} {row['99%']:>6} "
            f"{float(row['Max Response Time']):>6.0f}"
        )
    said = json.loads(counts.read_text())
    logged = MoveRecord.objects.count()
    print(
        f"moves accepted by the site: {said['moves']}, in the log: {logged}; "
        f"refused as stale (someone moved first): {said['refused']}"
    )
    print(
        f"tables that came on the event stream: {said.get('streamed', 0)}; fetched (not 204): "
        f"{said.get('fetched', 0)}"
    )
    server_errors = len(re.findall(r" 5\d\d \d+ms", (folder / "site.log").read_text()))
    problems = check()
    if said["moves"] != logged:
        problems.append("accepted moves and logged moves differ")
    if failures:
        problems.append(f"{failures} requests failed")
    print("database check:", "; ".join(problems) if problems else "all games whole")
    print(f"requests the site answered with a 5xx status: {server_errors}")
    moves = max(said["moves"], 1)
    print("CPU used during the run (all processes on this machine's 2 cores):")
    for role, seconds in sorted(cpu.items(), key=lambda item: -item[1]):
        print(f"  {role:<11} {seconds:7.1f} s, {seconds / moves * 1000:6.1f} ms per accepted move")


if __name__ == "__main__":
    main()
