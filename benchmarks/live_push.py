"""Live push as a player sees it: Chromium on the game page, the site under uvicorn, a Celery
worker, and the bots' pause set to 0.

    python benchmarks/live_push.py bots [--redis] [--moves 100]
    python benchmarks/live_push.py people [--redis] [--moves 100]

Without ``--redis`` the site runs as ``make run`` does (the embedded default: a SQLite file for
the database and for Celery's broker, the stream reading versions from the database); with it,
PostgreSQL (database ``nyet_bench``, created here) and Redis (pub/sub, broker, cache).

``bots``: a person plays a live 4-player game against three Medium bots by clicking, and the
script times, in the page, each click to the moment the table shows the person's turn again (the
last bot's card on screen), and that time divided by the bot moves it waited for.

``people``: two people at a live 2-player table, each in their own browser page; the time from
one person's click to the moment the other's page shows the move.

Times are taken inside the pages (``performance.timeOrigin + now()``, shared by both pages of
one browser): the click by a capturing listener, the new table by a MutationObserver.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.ports import free_port  # noqa: E402
from benchmarks.timing import fmt  # noqa: E402

DATABASE = "nyet_bench"
REDIS = "redis://127.0.0.1:6379/12"

# In each page: when each version of #game was first in the DOM, and when the last click was.
WATCH = """
window.__seen = {};
window.__clicked = 0;
const stamp = () => performance.timeOrigin + performance.now();
document.addEventListener("click", () => { window.__clicked = stamp(); }, true);
new MutationObserver(() => {
    const game = document.getElementById("game");
    const version = game && game.dataset.version;
    if (version && !(version in window.__seen)) window.__seen[version] = stamp();
}).observe(document, {subtree: true, childList: true, attributes: true,
                      attributeFilter: ["data-version"]});
"""
# Whose turn it is, by the status's text: htmx gives an element that keeps its id across a swap
# its old attributes for a moment (to let CSS transitions run), so the "your-turn" class of the
# status may still be there for 20 ms after it is someone else's turn.
# One legal move by the page's own controls, chosen and clicked in one go (so that a table
# swapped in by a push cannot come between ticking a card and sending it); what it was.
MOVE = """() => {
    const game = document.getElementById("game");
    if (!game || !game.querySelector(".turn-flag")) return null;
    const version = +game.dataset.version;
    const submit = (form) => form.querySelector("button[type=submit]").click();
    const teams = game.querySelector("form[data-teams]");
    if (teams) { submit(teams); return [version, "teams"]; }
    const choice = game.querySelector(".choice-form");
    if (choice) {
        const pass = choice.querySelector("input[name=card]");
        if (pass) { pass.checked = true; submit(choice); return [version, "pass"]; }
        const wanted = +/(\\d+) card/.exec(choice.querySelector("legend").textContent)[1];
        const ones = (box) => box.value.slice(1) === "1";  // "not a 1": 1s last
        [...choice.querySelectorAll("input[name=cards]")]
            .sort((a, b) => ones(a) - ones(b)).slice(0, wanted)
            .forEach((box) => { box.checked = true; });
        submit(choice);
        return [version, "discard"];
    }
    const board = game.querySelectorAll(".board button[name=box]");
    if (board.length) { board[0].click(); return [version, "token"]; }
    const card = game.querySelector(".hand button.card-button.playable");
    if (card) { card.click(); return [version, "play"]; }
    return null;
}"""
# Both the first time the page showed a version at least ``v`` and that version.
FIRST_AT_LEAST = """(v) => {
    const seen = Object.entries(window.__seen).filter(([k]) => +k >= v);
    return seen.length ? Math.min(...seen.map(([, t]) => t)) : null;
}"""


def environment(redis: bool, folder: Path) -> dict:
    env = {
        **os.environ,
        "BOT_PAUSE_SECONDS": "0",
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "DJANGO_SETTINGS_MODULE": "nyet_site.settings",
        "PYTHONUNBUFFERED": "1",
        # The script moves the moment its turn comes, faster than the limit a person meets
        # (120 moves a minute).
        "RATELIMIT_ENABLE": "false",
    }
    if redis:
        env["DATABASE_URL"] = f"postgresql://root@127.0.0.1:5432/{DATABASE}"
        env["REDIS_URL"] = REDIS
        env.pop("CELERY_BROKER_URL", None)
    else:
        env["DATABASE_URL"] = f"sqlite:///{folder / 'db.sqlite3'}"
        env["CELERY_BROKER_URL"] = f"sqla+sqlite:///{folder / 'broker.sqlite3'}"
        env["REDIS_URL"] = ""
    return env


def prepare(redis: bool, env: dict) -> None:
    """Migrates ``env``'s database, then sets Django up in this process. With ``redis``, its
    PostgreSQL database is made afresh and its Redis database emptied first (both read from
    ``env``, so that another benchmark can bring its own)."""
    if redis:
        import psycopg
        import redis as redis_client

        database = env["DATABASE_URL"].rsplit("/", 1)[1]
        with psycopg.connect("postgresql://root@127.0.0.1:5432/postgres", autocommit=True) as db:
            db.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
            db.execute(f"CREATE DATABASE {database}")
        redis_client.Redis.from_url(env["REDIS_URL"]).flushdb()
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, check=True, env=env
    )
    os.environ.update(env)
    import django

    django.setup()


def start_site(env: dict, folder: Path) -> tuple[list[subprocess.Popen], str]:
    """The two processes of ``make run``, without its code reloader."""
    port = free_port()
    commands = {
        "web": [sys.executable, "-m", "uvicorn", "nyet_site.asgi:application", "--port", str(port)],
        "worker": [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "nyet_site",
            "worker",
            "--pool=solo",
            "--queues=play,catchup,email,sweep",
            "--loglevel=warning",
        ],
    }
    processes = [
        subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=(folder / f"{name}.log").open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        for name, command in commands.items()
    ]
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert time.monotonic() < deadline, (folder / "web.log").read_text()
            time.sleep(0.2)
    time.sleep(3)  # the worker is ready too
    return processes, f"http://127.0.0.1:{port}"


def stop(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        process.wait(timeout=30)


def open_page(browser, base: str, user):
    from django.test import Client
    from playwright.sync_api import expect

    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=base, viewport={"width": 1280, "height": 800})
    context.set_default_timeout(60_000)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )
    context.add_init_script(WATCH)
    return context.new_page(), expect


def game_page(page, expect, game_id: int) -> None:
    page.goto(f"/games/{game_id}/")
    # Measure the push, not the fallback poll: the stream must be open.
    expect(page.locator("html[data-live=stream]")).to_be_attached()


def run(page, script: str, arg=None):
    """``page.evaluate``, but failing after 30 s instead of waiting for ever on a stuck page."""
    wrapped = f"(arg) => [({script})(arg)]"
    return page.wait_for_function(wrapped, arg=arg, timeout=30_000).json_value()[0]


def version(page) -> int:
    return int(page.locator("#game").get_attribute("data-version"))


def bots(browser, base: str, moves: int) -> None:
    from accounts.models import User
    from games.actions import create_game
    from games.models import Game

    alice = User.objects.create_user("alice", "alice@example.com", "pw")
    waits, per_reply, replies, misses = [], [], 0, 0
    while len(waits) < moves:
        game = create_game(alice, players=4, bots=["medium"] * 3, move_seconds=600)
        page, expect = open_page(browser, base, alice)
        game_page(page, expect, game.pk)
        while len(waits) < moves:
            turn = page.locator("#game .turn-flag")
            expect(turn.or_(page.locator("#game .game-over")).first).to_be_attached()
            if Game.objects.get(pk=game.pk).status == Game.Status.FINISHED:
                break
            moved = run(page, MOVE)
            if not moved:
                misses += 1
                if misses > 200:
                    print(page.locator("#game").inner_html())
                    raise AssertionError("no control to move with")
                time.sleep(0.01)
                continue  # the table changed between the check and the move
            misses = 0
            before = moved[0]
            # The person's turn again, or the game's end.
            page.wait_for_function(
                """(v) => { const g = document.getElementById("game");
                  return g && +g.dataset.version > v
                      && g.querySelector(".turn-flag, .game-over"); }""",
                arg=before,
            )
            now = version(page)
            if page.locator("#game .game-over").count():
                break
            if now == before + 1:
                continue  # still the person's turn (a trick won, a lead): no bot to wait for
            shown = run(page, FIRST_AT_LEAST, now)
            clicked = run(page, "() => window.__clicked")
            wait = (shown - clicked) / 1000
            waits.append(wait)
            others = now - before - 1  # the bots' moves between the person's two turns
            per_reply.append(wait / others)
            replies += others
            if len(waits) % 20 == 0:
                print(f"{len(waits)} moves measured, in game {game.pk}", flush=True)
        page.context.close()
    print(f"{len(waits)} moves of the person, {replies} bot replies")
    print(f"click to the person's turn again (all bots answered): {fmt(waits)}")
    print(f"the same divided by the bot moves waited for (per reply): {fmt(per_reply)}")


def people(browser, base: str, moves: int) -> None:
    from accounts.models import User
    from games.actions import create_game, join_game
    from games.models import Game

    alice = User.objects.create_user("alice", "alice@example.com", "pw")
    bob = User.objects.create_user("bob", "bob@example.com", "pw")
    delays = []
    while len(delays) < moves:
        game = create_game(alice, players=2, move_seconds=600)
        join_game(bob, game.pk)
        pages = []
        for user in (alice, bob):
            page, expect = open_page(browser, base, user)
            game_page(page, expect, game.pk)
            pages.append(page)
        while len(delays) < moves:
            if Game.objects.get(pk=game.pk).status == Game.Status.FINISHED:
                break
            mover = next((p for p in pages if p.locator("#game .turn-flag").count()), None)
            if mover is None:
                time.sleep(0.05)
                continue
            other = pages[1 - pages.index(mover)]
            moved = run(mover, MOVE)
            if not moved:
                continue  # the table changed between the check and the move
            before = moved[0]
            mover.wait_for_function(
                "(v) => +document.getElementById('game').dataset.version > v", arg=before
            )
            moved = version(mover)
            other.wait_for_function(
                "(v) => +document.getElementById('game').dataset.version >= v", arg=moved
            )
            shown = run(other, FIRST_AT_LEAST, moved)
            delays.append((shown - run(mover, "() => window.__clicked")) / 1000)
        for page in pages:
            page.context.close()
    print(f"{len(delays)} moves")
    print(f"one person's click to the move on the other's screen: {fmt(delays)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", choices=["bots", "people"])
    parser.add_argument("--redis", action="store_true", help="PostgreSQL and Redis")
    parser.add_argument("--moves", type=int, default=100)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        env = environment(args.redis, folder)
        prepare(args.redis, env)
        processes, base = start_site(env, folder)
        atexit.register(stop, processes)  # also when interrupted
        print("embedded default" if not args.redis else "PostgreSQL and Redis", args.scenario)
        try:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's loop is this thread's
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
                )
                {"bots": bots, "people": people}[args.scenario](browser, base, args.moves)
                browser.close()
        except BaseException:
            from games import engine
            from games.models import Game

            for game in Game.objects.filter(status=Game.Status.ACTIVE):
                state = engine.state_from_json(game.state)
                print(f"game {game.pk}: version {game.version}, to act {engine.to_act(state)}")
            for log in ("web", "worker"):
                print(f"--- {log}.log, the end:", (folder / f"{log}.log").read_text()[-3000:])
            raise
        finally:
            stop(processes)


if __name__ == "__main__":
    main()
