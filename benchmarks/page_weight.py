"""The game page's weight over the wire and its server time.

Goal (issue 13): the game page with its stylesheets and scripts stays under 100 KB compressed.
Measured on games against Easy bots at 2 and 5 players, at the start of round 1 (the board) and
in the last round's trick phase (a full scorepad, the round's move log): the full page as a
browser first loads it, every static file the page names (stylesheets, scripts, icons), all
gzipped (level 6, as a web server compresses them), and the median time of the page's view over
``--repeat`` requests (Django's test client: the view, its queries and the template, without a
network).

    .venv/bin/python benchmarks/page_weight.py [--repeat 30]

It builds its games in a throwaway in-memory database; nothing else is touched.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nyet_site.settings")
os.environ["CELERY_TASK_ALWAYS_EAGER"] = "true"  # the bots answer within each move
os.environ["BOT_PAUSE_SECONDS"] = "0"  # at once: their pause is for people, not this count
os.environ.setdefault("LOG_LEVEL", "WARNING")  # a log line per request would bury the table
os.environ.setdefault("DATABASE_URL", "sqlite://:memory:")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.staticfiles import finders  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

GOAL = 100 * 1024


def gz(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=6))


def assets(html: str) -> list[str]:
    """Every static file the page names, as static paths: its stylesheets, scripts and icons,
    and the ones its scripts load from the page's attributes (the "your turn" favicon), read
    from the page itself so that a file added to a template is counted without a change here."""
    found = re.findall(rf'="{re.escape(settings.STATIC_URL)}([^"?#]+)', html)
    return list(dict.fromkeys(found))


def build_game(players: int, until):
    """alice against Easy bots, her moves as an Easy bot would choose them, until ``until``."""
    from accounts.models import User
    from games import engine
    from games.actions import create_game, submit_move
    from games.bots import make_bot
    from games.models import Game

    alice = User.objects.filter(username="alice").first() or User.objects.create_user(
        "alice", "alice@example.com", "benchmark-pw"
    )
    game = create_game(alice, players=players, bots=["easy"] * (players - 1))
    while True:
        game.refresh_from_db()
        state = engine.state_from_json(game.state)
        if game.status == Game.Status.FINISHED:
            raise RuntimeError("the game ended before the state asked for")
        if 0 in engine.to_act(state) and until(state):
            return alice, game
        move = engine.move_to_json(make_bot("easy", game.version).choose(engine.view(state, 0)))
        del move["seat"]
        submit_move(alice, game.pk, game.version, move)


def measure(client: Client, url: str, repeat: int) -> dict:
    client.get(url)  # the first visit of the minute records presence: not the usual cost
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - began)
    html = response.content
    files = {}
    for path in assets(html.decode()):
        files[path] = Path(finders.find(path)).read_bytes()
    fragment = client.get(url, headers={"HX-Request": "true"}).content
    return {
        "html": (len(html), gz(html)),
        "fragment": (len(fragment), gz(fragment)),
        "files": {path: (len(data), gz(data)) for path, data in files.items()},
        "median_ms": statistics.median(times) * 1000,
        "p90_ms": sorted(times)[int(0.9 * (len(times) - 1))] * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    setup_test_environment()
    connection.creation.create_test_db(verbosity=0)
    from games.engine.cards import SETUPS

    cases = []
    for players in (2, 5):
        last = SETUPS[players].rounds
        cases.append((f"{players} players, round 1, the board", players, lambda s: True))
        cases.append(
            (
                f"{players} players, round {last}, a trick in play",
                players,
                lambda s, last=last: s.round == last and s.phase == "tricks" and s.tricks,
            )
        )
    print(
        "| state | page (gzip) | + CSS, JS, icon (gzip) | total (gzip) | HTMX fragment (gzip) "
        "| server median / p90 |"
    )
    print("|---|---|---|---|---|---|")
    worst = 0
    for label, players, until in cases:
        alice, game = build_game(players, until)
        client = Client()
        client.force_login(alice)
        result = measure(client, f"/games/{game.pk}/", args.repeat)
        files = sum(z for _, z in result["files"].values())
        total = result["html"][1] + files
        worst = max(worst, total)
        print(
            f"| {label} | {result['html'][1] / 1024:.1f} KB ({result['html'][0] / 1024:.0f} KB raw)"
            f" | {files / 1024:.1f} KB | **{total / 1024:.1f} KB** "
            f"| {result['fragment'][1] / 1024:.1f} KB | {result['median_ms']:.0f} / "
            f"{result['p90_ms']:.0f} ms |"
        )
    print()
    print("Files (raw / gzip):")
    for path, (raw, zipped) in sorted(result["files"].items()):
        print(f"- {path}: {raw / 1024:.1f} KB / {zipped / 1024:.1f} KB")
    verdict = "under" if worst < GOAL else "OVER"
    print(f"\nHeaviest: {worst / 1024:.1f} KB, {verdict} the {GOAL // 1024} KB goal.")


if __name__ == "__main__":
    main()
