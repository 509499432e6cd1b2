"""Pages against a bare view: the production web process (gunicorn with uvicorn workers, the
``web`` line of the Procfile) on PostgreSQL and Redis, asked for one URL at a time by 4 clients
on kept-alive connections, for ``--seconds`` each.

    .venv/bin/python benchmarks/pages.py [--seconds 10]

For each URL: requests a second, the median time, and what one request costs the web processes
and PostgreSQL in CPU milliseconds (read from the processes, so the clients' own cost, on the
same 2 cores, does not blur the comparison). The ratio is the bare view's cost over the page's:
the goal (issue 15) is at least 0.5 for the game page, its HTMX fragment and the lobby, and 0.9
for a poll that finds nothing new. The game is alice's 4-player game against Easy bots, in the
tricks of round 2. It uses its own database, ``nyet_pages`` (``--database`` names another, so
that two people can measure at once), and Redis database 13.
"""

from __future__ import annotations

import argparse
import http.client
import http.cookies
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks" / "load"))
from run import PRODUCTION  # noqa: E402  (benchmarks/load/run.py)

from benchmarks.web import start_web  # noqa: E402

DATABASE = "nyet_pages"
CLIENTS = 4


def prepare(folder: Path, database: str) -> tuple[dict, dict]:
    import psycopg
    import redis

    url = f"postgresql://root@127.0.0.1:5432/{database}"
    with psycopg.connect("postgresql://root@127.0.0.1:5432/postgres", autocommit=True) as db:
        db.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        db.execute(f"CREATE DATABASE {database}")
    redis_url = "redis://127.0.0.1:6379/13"
    redis.Redis.from_url(redis_url).flushdb()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NYET_", "DJANGO_"))}
    env.update(PRODUCTION, DATABASE_URL=url, REDIS_URL=redis_url, STATIC_ROOT=str(folder))
    env["PATH"] = f"{Path(sys.executable).parent}:{env['PATH']}"
    for command in (["migrate", "-v", "0"], ["collectstatic", "--noinput", "-v", "0"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True)
    os.environ.update(env, CELERY_TASK_ALWAYS_EAGER="true", BOT_PAUSE_SECONDS="0")
    os.environ["DJANGO_SETTINGS_MODULE"] = "nyet_site.settings"
    import django

    django.setup()
    from django.test import Client

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from page_weight import build_game

    alice, game = build_game(4, lambda s: s.round == 2 and s.phase == "tricks" and s.tricks)
    client = Client()
    client.force_login(alice)
    urls = {
        "bare view": "/bench/bare/",
        "game page": f"/games/{game.pk}/",
        "game fragment (HTMX)": f"/games/{game.pk}/",
        "lobby": "/",
        "poll, nothing new": f"/games/{game.pk}/poll/?version={game.version}",
    }
    env["NYET_BENCH_SESSION"] = client.cookies["sessionid"].value
    return env, urls


def ask(port: int, url: str, headers: dict, seconds: float) -> list[float]:
    """CLIENTS threads asking for ``url`` until ``seconds`` have passed; each request's time."""
    times: list[float] = []
    stop = time.monotonic() + seconds

    failed = []

    def client():
        try:
            run()
        except Exception as error:
            failed.append(error)

    def run():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine = []
        jar = http.cookies.SimpleCookie(headers["Cookie"])
        while time.monotonic() < stop:
            began = time.perf_counter()
            cookie = "; ".join(f"{name}={morsel.value}" for name, morsel in jar.items())
            connection.request("GET", url, headers={**headers, "Cookie": cookie})
            response = connection.getresponse()
            response.read()
            # as a browser keeps them: the presence cookie spares a write a request
            for header in response.headers.get_all("Set-Cookie") or ():
                jar.load(header)
            assert response.status in (200, 204), (url, response.status)
            mine.append(time.perf_counter() - began)
        connection.close()
        times.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failed:
        raise failed[0]
    return times


def cpu(processes: list[psutil.Process]) -> float:
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--database", default=DATABASE, help="the PostgreSQL database to (re)make")
    parser.add_argument("--only", default="", help="measure only the URLs whose name has this")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env, urls = prepare(Path(folder), args.database)
        env["DJANGO_SETTINGS_MODULE"] = "benchmarks.bare_site"
        site, port = start_web(env, Path(folder))
        try:
            headers = {
                "Host": "127.0.0.1",
                "X-Forwarded-Proto": "https",
                "Cookie": f"sessionid={env['NYET_BENCH_SESSION']}",
            }
            web_processes = psutil.Process(site.pid).children(recursive=True)
            for name, url in urls.items():
                ask(port, url, _headers(headers, name), 2)  # warm: every worker, every cache
            # the PostgreSQL backends serving this database (one per connection the web keeps)
            database = [
                p
                for p in psutil.process_iter(["cmdline"])
                if args.database in " ".join(p.info["cmdline"] or ())
            ]
            print(
                "| request | requests/s | median | web CPU per request | PostgreSQL CPU "
                "per request | cost ratio (bare/this) |"
            )
            print("|---|---|---|---|---|---|")
            bare_cost = None
            for name, url in urls.items():
                if args.only not in name and name != "bare view":
                    continue
                web_before, db_before = cpu(web_processes), cpu(database)
                times = ask(port, url, _headers(headers, name), args.seconds)
                n = len(times)
                web_ms = (cpu(web_processes) - web_before) / n * 1000
                db_ms = (cpu(database) - db_before) / n * 1000
                bare_cost = bare_cost or web_ms + db_ms
                print(
                    f"| {name} | {n / args.seconds:.0f} | "
                    f"{statistics.median(times) * 1000:.1f} ms | {web_ms:.2f} ms | "
                    f"{db_ms:.2f} ms | {bare_cost / (web_ms + db_ms):.2f} |"
                )
        except Exception:
            print((Path(folder) / "web.log").read_text()[-3000:])
            raise
        finally:
            os.killpg(site.pid, signal.SIGTERM)
            site.wait(timeout=60)


def _headers(base: dict, name: str) -> dict:
    return {**base, "HX-Request": "true"} if "HTMX" in name else base


if __name__ == "__main__":
    main()
