"""Many live tables at once (issue 30): tables left to their bots, tables where a person plays
against bots in Chromium, and tables where a person never moves, all on one site, for a while.

    python benchmarks/live_tables.py --set procfile [--seconds 180]
    python benchmarks/live_tables.py --set run [--seconds 180]

``--set procfile``: the processes of the ``Procfile`` (web: gunicorn with 2 uvicorn workers;
``play``, ``think``, ``worker``, ``beat``, ``tick``) on PostgreSQL (database ``nyet_tables``,
made afresh here) and Redis (database 14, emptied). ``--set run``: ``make run``'s default, the
processes of ``Procfile.dev`` (uvicorn, one solo Celery worker on every queue, beat, tick) on a
SQLite database and a SQLite broker in a temporary folder. Either way ``tick`` is started from
its line, or by the script when the file has none yet. The settings are development's (DEBUG
on, as ``live_push.py``): production's ask for HTTPS, which a browser on 127.0.0.1 lacks. The
bots' pause is the site's default (``BOT_PAUSE_SECONDS``, 0.6 s) and so are the rate limits.
The pages ask for reduced motion (``--motion``): the browser runs on the site's own two cores
here, and the acting seat's endless glow cost it 0.4 cores a page (``open_person_page``).

The tables, all live, with Medium bots, 3 to 5 players, kept in play for the whole run (one that
ends is replaced by a new one of its kind):

- ``--bot-tables`` (10): its person resigns right after the start, so the bots and the stand-in
  play the game to its end, in slices, on the ``catchup`` queue;
- ``--person-tables`` (5): a person plays in a Chromium page (one browser, a context each,
  logged in as that person), clicking one of the moves the page offers ``--think`` seconds
  (1) after it offers it (``live_push.MOVE``, run by the page itself every 20 ms);
- ``--timeout-tables`` (3): a person who never moves, 10 seconds a move (the site offers a
  minute at least; the clock is set in the database right after the start, and every turn after
  takes ``move_seconds`` from the game row): the live tick plays the stand-in for them. After
  three timeouts in a row the seat goes on autopilot; the script then says "I'm back" for them
  (``come_back``), as a person would, so that timeouts keep coming.

What it measures:

- in each person's page, when each move was first on screen (``#game``'s ``data-moves``: the
  table right after move K, a step shown by ``live.js`` or the newest table), by a
  MutationObserver, and when the person clicked. For each bot move on screen: its time minus
  the time the move before it was on screen, or minus the click when that move was the
  person's own;
- for each timeout (a ``MoveRecord`` with ``timeout=True``): its ``created_at`` minus the seat's
  deadline. The deadlines are read from the ``Seat`` rows every 0.2 s, not derived: a seat's
  clock may start at another move than the one before the timeout (the discards are chosen at
  once, each on its own clock), and a deadline lasts 10 s, so none is missed;
- each Celery task's duration, from the one line each task logs (``nyet_site/observability``),
  the longest by process and task, and by the kind of table it played (Expert's ``think`` apart);
- with Redis, every second, the unacknowledged messages (kombu's hash ``unacked``) and each
  queue's length; with the SQLite broker, each queue's visible messages;
- the machine's load and the processes' CPU time over the run.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.live_push import MOVE, environment, game_page, open_page, prepare, stop  # noqa: E402
from benchmarks.ports import free_port  # noqa: E402
from benchmarks.timing import fmt  # noqa: E402
from benchmarks.web import start_web  # noqa: E402

DATABASE = "nyet_tables"
REDIS = "redis://127.0.0.1:6379/14"
QUEUES = ("play", "think", "catchup", "email", "sweep")
TICK = "exec python manage.py tick"  # the line, while the Procfile has none yet
TIMEOUT_SECONDS = 10
BOT_GOAL, TIMEOUT_GOAL, TASK_GOAL = 1.0, 2.0, 1.0

# In each person's page: when each move was first on screen, and the person's clicks. The page
# moves by itself, so that five pages play at once without waiting for this script's turn; a
# table it has clicked on is not clicked again (its answer is on the way), unless it is still
# there 5 s later (a move lost on the way). A table is clicked only once htmx has taken it in
# (``htmx:load``, at the end of the swap's 20 ms settle): a click before that submits the form
# the browser's way, a whole page load (a 302, then the page again). The person thinks THINK_MS
# before each move, from the moment the table offers it: live.js holds a move's own answer
# until the pause after the move before it has passed, so a click sooner than the pause after
# the bots' last move has its own move shown a pause later, and the first bot reply a pause
# after that (BENCHMARKS.md, "Many live tables at once").
PLAYER = """
window.__shown = {};
window.__clicks = [];
window.__hidden = 0;
(() => {
    const stamp = () => performance.timeOrigin + performance.now();
    // What the page heard and asked, for --json: the stream's versions, the table's requests
    // and the steps' fetches.
    window.__trace = [];
    const note = (...what) => window.__trace.push([stamp(), ...what]);
    const Source = window.EventSource;
    window.EventSource = function (url) {
        const source = new Source(url);
        source.addEventListener("version", (event) => note("event", +event.data));
        return source;
    };
    window.EventSource.CLOSED = Source.CLOSED;
    const fetch = window.fetch;
    window.fetch = (url, options) => {
        note("fetch", String(url));
        return fetch(url, options).then((answer) => {
            note("fetched", String(url));
            return answer;
        });
    };
    const path = (event) => event.detail.pathInfo.requestPath;
    document.addEventListener("htmx:beforeRequest", (e) => note("request", path(e)));
    const status = (event) => event.detail.xhr.status;
    document.addEventListener("htmx:afterRequest", (e) => note("answer", path(e), status(e)));
    const ready = new WeakSet();
    document.addEventListener("htmx:load", (event) => {
        const game = document.getElementById("game");
        if (game && event.detail.elt.contains(game)) ready.add(game);
    });
    new MutationObserver(() => {
        const game = document.getElementById("game");
        const moves = game && game.dataset.moves;
        if (moves !== undefined && !(moves in window.__shown)) window.__shown[moves] = stamp();
    }).observe(document, {subtree: true, childList: true, attributes: true,
                          attributeFilter: ["data-moves"]});
    const move = (MOVE);
    const offered = new WeakMap();  // table -> when it was first seen offering a move
    let clickedOn = null, clickedAt = 0;
    setInterval(() => {
        if (document.hidden) window.__hidden += 1;
        const game = document.getElementById("game");
        if (!game || !ready.has(game) || game.dataset.step !== undefined) return;
        if (game === clickedOn && stamp() - clickedAt < 5000) return;
        if (!game.querySelector(".turn-flag")) return;
        if (!offered.has(game)) offered.set(game, stamp());
        if (stamp() - offered.get(game) < THINK_MS) return;
        const at = stamp();
        const moved = move();
        if (moved) {
            clickedOn = game;
            clickedAt = at;
            window.__clicks.push([at, +game.dataset.moves, moved[1]]);
        }
    }, 20);
})();
""".replace("(MOVE)", f"({MOVE})")


def player(think: float) -> str:
    return PLAYER.replace("THINK_MS", str(round(think * 1000)))


READ_PAGE = """() => ({shown: window.__shown, clicks: window.__clicks, hidden: window.__hidden,
    trace: window.__trace,
    pause: +((document.getElementById("game") || {dataset: {}}).dataset.pause || 0)})"""


@dataclass
class Table:
    kind: str  # "bots", "person" or "timeout"
    game_id: int
    user: object
    page: object = None
    finished_at: float | None = None  # when the script saw it end (a person's page lags)
    replaced: bool = False


@dataclass
class Watch:
    """What the script samples during the run."""

    deadlines: dict = field(default_factory=lambda: defaultdict(set))  # (game, seat) -> {epoch}
    unacked: list = field(default_factory=list)
    queued: dict = field(default_factory=lambda: defaultdict(int))  # queue -> most at once
    comebacks: int = 0
    replaced: dict = field(default_factory=lambda: defaultdict(int))
    pages: list = field(default_factory=list)  # one dict per person game: read from its page
    errors: dict = field(default_factory=lambda: defaultdict(int))  # HTTP status >= 300


# --- the processes of a set ----------------------------------------------------------------


def procfile(path: Path) -> dict[str, str]:
    lines = (x.split(":", 1) for x in path.read_text().splitlines() if re.match(r"\w+:", x))
    return {name: command.strip() for name, command in lines}


def set_environment(which: str, folder: Path) -> dict:
    env = environment(which == "procfile", folder)
    # As deployed and as `make run` runs: the site's own pause and rate limits (live_push
    # turns both off to time the machinery alone).
    env.pop("BOT_PAUSE_SECONDS", None)
    env.pop("RATELIMIT_ENABLE", None)
    env["PATH"] = f"{Path(sys.executable).parent}:{env['PATH']}"
    env["BEAT_SCHEDULE"] = str(folder / "celerybeat-schedule")
    for name in ("WEB_CONCURRENCY", "PLAY_CONCURRENCY", "THINK_CONCURRENCY", "WORKER_CONCURRENCY"):
        env.pop(name, None)  # the Procfile's defaults
    if which == "procfile":
        env["DATABASE_URL"] = f"postgresql://root@127.0.0.1:5432/{DATABASE}"
        env["REDIS_URL"] = REDIS
    return env


def start(which: str, env: dict, folder: Path) -> tuple[dict, str, list[str]]:
    """The set's processes by name, the site's address, and what the script had to add."""
    notes = []
    processes = {}
    if which == "procfile":
        lines = procfile(ROOT / "Procfile")
        lines.pop("release", None)  # prepare() migrated
        lines.pop("web")
        site, port = start_web(env, folder)
        processes["web"] = site
    else:
        lines = procfile(ROOT / "Procfile.dev")
        port = free_port()
        # No reloader: other people edit games/ meanwhile, and a reload mid-run would drop
        # every open page's stream.
        web = re.sub(r" --reload(-dir [^\s;]+)?", "", lines.pop("web"))
        lines = {"web": re.sub(r"--port [^\s;]+", f"--port {port}", web), **lines}
        lines["beat"] = re.sub(
            r"--schedule=[^\s;]+", f"--schedule={env['BEAT_SCHEDULE']}", lines["beat"]
        )
    if "tick" not in lines:
        lines["tick"] = TICK
        notes.append(
            f"`tick` is not in the {'Procfile' if which == 'procfile' else 'Procfile.dev'} "
            "yet: started by the script"
        )
    for name, command in lines.items():
        processes[name] = subprocess.Popen(
            command,
            shell=True,
            cwd=ROOT,
            env=env,
            stdout=(folder / f"{name}.log").open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    atexit.register(stop, list(processes.values()))
    deadline = time.monotonic() + 90
    waiting = {n: "ready." for n, c in lines.items() if " worker " in c}
    waiting["tick"] = "live tick every"
    while waiting:
        for name, text in list(waiting.items()):
            if text in (folder / f"{name}.log").read_text():
                waiting.pop(name)
        for name, process in processes.items():
            log = (folder / f"{name}.log").read_text()
            assert process.poll() is None, f"{name} stopped: {log}"
        assert time.monotonic() < deadline, f"not ready: {sorted(waiting)}"
        time.sleep(0.3)
    _wait_for_port(port, folder)
    return processes, f"http://127.0.0.1:{port}", notes


def _wait_for_port(port: int, folder: Path) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            assert time.monotonic() < deadline, (folder / "web.log").read_text()
            time.sleep(0.2)


# --- the tables ----------------------------------------------------------------------------

PLAYERS = (3, 4, 5)


def new_table(kind: str, index: int, user):
    from django.db import transaction
    from django.db.models import F

    from games.actions import create_game, resign
    from games.models import Game, Seat

    players = PLAYERS[index % len(PLAYERS)]
    bots = ["medium"] * (players - 1)
    if kind == "timeout":
        seconds = timedelta(seconds=TIMEOUT_SECONDS)
        # One transaction: the first bot task is queued when it commits, so no turn can start
        # on the minute the table was made with.
        with transaction.atomic():
            game = create_game(user, players=players, bots=bots, move_seconds=60)
            Game.objects.filter(pk=game.pk).update(move_seconds=TIMEOUT_SECONDS)
            Seat.objects.filter(game=game, deadline__isnull=False).update(
                deadline=F("acting_since") + seconds,
                reminder_due=F("acting_since") + seconds * 0.75,
            )
        return game
    game = create_game(user, players=players, bots=bots, move_seconds=60)
    if kind == "bots":
        resign(user, game.pk)
    return game


def person(name: str):
    from accounts.models import User

    return User.objects.create_user(name, f"{name}@example.com")  # force_login: no password


def open_person_page(browser, base: str, table: Table, watch: Watch, args) -> None:
    from playwright.sync_api import expect

    page, _ = open_page(browser, base, table.user)
    page.context.add_init_script(player(args.think))
    # The acting seat's glow (an endless box-shadow animation, table.css) repaints the page at
    # every frame: in this software-rendered Chromium, 0.4 cores per open page, taken from the
    # site's two cores, where people's browsers run on their own machines. The pace of the
    # moves is the same either way (live.js).
    page.emulate_media(reduced_motion=args.motion)
    page.on("response", lambda r: r.status >= 300 and _count(watch.errors, r.status))
    game_page(page, expect, table.game_id)
    table.page = page


def _count(counts: dict, key) -> None:
    counts[key] += 1


def read_page(table: Table, watch: Watch) -> None:
    data = table.page.evaluate(READ_PAGE)
    watch.pages.append({"game": table.game_id, **data})


# --- the run -------------------------------------------------------------------------------


class Sampler:
    """The broker's queues, every second."""

    def __init__(self, which: str, folder: Path):
        self.redis = None
        self.sqlite = None
        if which == "procfile":
            import redis

            self.redis = redis.Redis.from_url(REDIS)
        else:
            self.sqlite = folder / "broker.sqlite3"

    def sample(self, watch: Watch) -> None:
        if self.redis is not None:
            pipe = self.redis.pipeline()
            pipe.hlen("unacked")
            for queue in QUEUES:
                for suffix in ("", "\x06\x163", "\x06\x166", "\x06\x169"):  # kombu's priorities
                    pipe.llen(queue + suffix)
            answers = pipe.execute()
            watch.unacked.append(answers[0])
            for i, queue in enumerate(QUEUES):
                length = sum(answers[1 + 4 * i : 5 + 4 * i])
                watch.queued[queue] = max(watch.queued[queue], length)
            return
        try:
            with sqlite3.connect(f"file:{self.sqlite}?mode=ro", uri=True, timeout=0.2) as db:
                rows = db.execute(
                    "SELECT q.name, count(*) FROM kombu_message m JOIN kombu_queue q"
                    " ON m.queue_id = q.id WHERE m.visible GROUP BY q.name"
                ).fetchall()
        except sqlite3.Error:
            return  # the file busy: the next second's sample
        for queue, count in rows:
            watch.queued[queue] = max(watch.queued[queue], count)


def play(args, browser, base: str, folder: Path, processes: dict):
    """Makes the tables and keeps them in play for ``args.seconds``: the tables, what was
    watched, the run's start and end (epoch seconds) and the CPU used meanwhile."""
    from django.db import close_old_connections
    from playwright.sync_api import expect

    from games.actions import come_back
    from games.models import Game, Seat

    watch = Watch()
    sampler = Sampler(args.set, folder)
    tables: list[Table] = []
    made = defaultdict(int)  # tables made of each kind: their players go 3, 4, 5, 3...

    def table(kind: str, user, page=None) -> Table:
        made[kind] += 1
        return Table(kind, new_table(kind, made[kind] - 1, user).pk, user, page)

    counts = {"bots": args.bot_tables, "timeout": args.timeout_tables, "person": args.person_tables}
    for kind, count in counts.items():
        for i in range(count):
            tables.append(table(kind, person(f"{kind}{i}")))
            if kind == "person":
                open_person_page(browser, base, tables[-1], watch, args)
    cpu = Cpu(processes)
    started = time.time()
    print(f"{len(tables)} tables in play; running {args.seconds:.0f} s", flush=True)
    ends = time.monotonic() + args.seconds
    next_second = 0.0
    while time.monotonic() < ends:
        beat = time.monotonic()
        live = {t.game_id: t for t in tables if t.finished_at is None}
        for game_id, position, deadline in Seat.objects.filter(
            game_id__in=live, deadline__isnull=False
        ).values_list("game_id", "position", "deadline"):
            watch.deadlines[(game_id, position)].add(deadline.timestamp())
        for seat in Seat.objects.filter(
            game_id__in=[g for g, t in live.items() if t.kind == "timeout"],
            autopilot=True,
            resigned_at__isnull=True,
            game__status=Game.Status.ACTIVE,
        ).select_related("user"):
            come_back(seat.user, seat.game_id)
            watch.comebacks += 1
        if beat >= next_second:
            next_second = beat + 1
            sampler.sample(watch)
            over = set(
                Game.objects.filter(pk__in=live)
                .exclude(status=Game.Status.ACTIVE)
                .values_list("pk", flat=True)
            )
            for done in tables:
                if done.game_id in over:
                    done.finished_at = time.monotonic()
            for done in [t for t in tables if t.finished_at is not None and not t.replaced]:
                # A person's page shows the last moves at the bots' pace: read it once it is
                # at the end (or after a minute).
                if done.page is not None and not (
                    done.page.locator("#game .game-over").count()
                    or time.monotonic() - done.finished_at > 60
                ):
                    continue
                done.replaced = True
                watch.replaced[done.kind] += 1
                tables.append(table(done.kind, done.user, done.page))
                if done.page is not None:
                    read_page(done, watch)
                    game_page(done.page, expect, tables[-1].game_id)
                    done.page = None
        close_old_connections()
        idle = 0.2 - (time.monotonic() - beat)
        # Waiting in a page lets Playwright hear the pages' responses meanwhile.
        pages = [t.page for t in tables if t.page is not None]
        if idle > 0:
            pages[0].wait_for_timeout(idle * 1000) if pages else time.sleep(idle)
    ended = time.time()
    used = cpu.report()
    for table in tables:
        if table.page is not None:
            read_page(table, watch)
    return tables, watch, started, ended, used


# --- what the run says ---------------------------------------------------------------------


def bot_replies(watch: Watch, started: float) -> dict:
    """For each bot move a person's page showed once every table was in play (``started``): its
    time on screen minus the move before's (or the person's click that made it). With the
    server's side of each, to tell where time went."""
    from games.models import MoveRecord

    intervals, server, first_reply, slow = [], [], [], []
    after_click, after_bot = [], []  # the intervals by what came before
    own, then = [], []  # the first reply's: the click to the own move shown, then to the reply
    together = unclicked = 0
    for data in watch.pages:
        shown = {int(k): v / 1000 for k, v in data["shown"].items() if k.isdigit()}
        clicks = sorted(c[0] / 1000 for c in data["clicks"])
        if not shown:
            continue
        # The moves before the table the page opened on, and those made after it was last
        # read, were never on this screen.
        opened, last = min(shown), max(shown)
        records = {
            r.number: r
            for r in MoveRecord.objects.filter(game_id=data["game"]).only(
                "number", "seat", "by_bot", "created_at"
            )
        }
        # When each move was first on screen: with the table right after it, or with a later
        # one when the page showed it together with the moves after it.
        appeared, first = {}, None
        for number in range(last, opened - 1, -1):
            first = shown.get(number, first)
            appeared[number] = first
        for number in range(max(opened, 1) + 1, last + 1):
            record, previous = records[number], records[number - 1]
            if not record.by_bot or record.seat == 0:
                continue  # the person's own move (their seat is 0, create_game)
            persons = previous.seat == 0 and not previous.by_bot
            if appeared[number - 1] < started:
                continue  # while the tables were being made
            if persons:
                before = [c for c in clicks if c <= appeared[number - 1]]
                if not before:
                    unclicked += 1
                    continue
                since = before[-1]
            else:
                since = appeared[number - 1]
            together += number not in shown
            wait = appeared[number] - since
            made_at = record.created_at.timestamp()
            intervals.append(wait)
            (after_click if persons else after_bot).append(wait)
            if persons:
                own.append(appeared[number - 1] - since)
                then.append(appeared[number] - appeared[number - 1])
            server.append(made_at - previous.created_at.timestamp())
            if persons:
                first_reply.append(made_at - previous.created_at.timestamp())
            if wait > BOT_GOAL:
                # The server's part: from the move before on screen (or the click) to the bot's
                # move made; the page's: from then to the move on screen.
                slow.append(
                    (wait, made_at - since, appeared[number] - made_at, data["game"], number)
                )
    slow.sort(reverse=True)
    return {
        "intervals": intervals,
        "server": server,
        "first_reply": first_reply,
        "after_click": after_click,
        "after_bot": after_bot,
        "own": own,
        "then": then,
        "slow": slow,
        "late_by_server": sum(1 for s in slow if s[1] > BOT_GOAL / 2),
        "together": together,
        "unclicked": unclicked,
        "pause": max((d["pause"] for d in watch.pages), default=None),
        "hidden": sum(d["hidden"] for d in watch.pages),
        "clicks": sum(len(d["clicks"]) for d in watch.pages),
    }


def timeouts(tables: list[Table], watch: Watch, started: float, ended: float) -> dict:
    from games.models import MoveRecord

    kinds = {t.game_id: t.kind for t in tables}
    lateness, unknown, by_kind = [], 0, defaultdict(int)
    for record in MoveRecord.objects.filter(game_id__in=kinds, timeout=True):
        at = record.created_at.timestamp()
        if not started <= at <= ended + 5:
            continue
        seen = [d for d in watch.deadlines[(record.game_id, record.seat)] if d <= at]
        if not seen:
            unknown += 1
            continue
        lateness.append(at - max(seen))
        by_kind[kinds[record.game_id]] += 1
    return {"lateness": lateness, "unknown": unknown, "by_kind": dict(by_kind)}


TASK_LINE = re.compile(
    r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}).* task (\w+) (?:\w+=(\d+))?(?: version=\d+)? ?"
    r"(\w+) result=(.*) (\d+)ms\s*$"
)


def tasks(folder: Path, processes: dict, tables: list[Table], started: float, ended: float):
    """Each task's duration (those that ended during the run) by the process that ran it and by
    the kind of table it played; and how many of a table's tasks found nothing to do (a copy
    queued again by the tick, or a table moved on)."""
    kinds = {t.game_id: t.kind for t in tables}
    by_process, by_kind = defaultdict(list), defaultdict(list)
    states, idle = defaultdict(int), defaultdict(int)
    for name in processes:
        for line in (folder / f"{name}.log").read_text(errors="replace").splitlines():
            found = TASK_LINE.search(line)
            if not found:
                continue
            at, task, game, state, result, ms = found.groups()
            # The log's clock is local time, as time.time()'s epoch is read here.
            at = datetime.strptime(at, "%Y-%m-%d %H:%M:%S,%f").timestamp()
            if not started <= at <= ended:
                continue
            seconds = int(ms) / 1000
            by_process[(name, task)].append(seconds)
            states[state] += 1
            if task in ("play_bots", "play_timeouts", "think") and game:
                kind = kinds.get(int(game), "other")
                by_kind[(task, kind)].append(seconds)
                idle[(task, kind)] += result == "0"
    return {"by_process": by_process, "by_kind": by_kind, "states": dict(states), "idle": idle}


def moves_made(tables: list[Table], started: float, ended: float) -> dict:
    from datetime import UTC

    from games.models import MoveRecord

    kinds = defaultdict(list)
    for t in tables:
        kinds[t.kind].append(t.game_id)
    since, until = (datetime.fromtimestamp(x, UTC) for x in (started, ended))
    made = {}
    for kind, games in kinds.items():
        made[kind] = MoveRecord.objects.filter(
            game_id__in=games, created_at__gte=since, created_at__lte=until
        ).count()
    # How long a table left to its bots waited between two of its moves: its slices' queue.
    gaps = []
    for game in kinds["bots"]:
        times = [
            r.timestamp()
            for r in MoveRecord.objects.filter(game_id=game, created_at__gte=since)
            .order_by("number")
            .values_list("created_at", flat=True)
        ]
        gaps += [b - a for a, b in zip(times, times[1:], strict=False)]
    return {"made": made, "bot_table_gaps": gaps}


class Cpu:
    """Where the machine's CPU went during the run: the set's processes (with their children),
    the browser, PostgreSQL and Redis, this script, and everything else (other people's work
    on the machine). Every process is read at both ends; one born meanwhile counts whole."""

    def __init__(self, processes: dict):
        import psutil

        self.psutil = psutil
        self.roots = {p.pid: name for name, p in processes.items()}
        self.start = self._read()
        self.machine = psutil.cpu_times()
        self.load = os.getloadavg()
        self.began = time.monotonic()

    def _group(self, process, me: int) -> str:
        try:
            chain = [process, *process.parents()]
            name = process.name().lower()
        except self.psutil.Error:
            return "others"
        for link in chain:
            if link.pid in self.roots:
                return self.roots[link.pid]
        if "chrom" in name or "headless" in name or "playwright" in name or "node" == name:
            return "chromium" if any(p.pid == me for p in chain) else "others"
        if name.startswith("postgres"):
            return "postgresql"
        if name.startswith("redis"):
            return "redis"
        return "this script" if process.pid == me else "others"

    def _read(self) -> dict:
        me = os.getpid()
        used = {}
        for process in self.psutil.process_iter():
            try:
                times = process.cpu_times()
            except self.psutil.Error:
                continue
            used[process.pid] = (self._group(process, me), times.user + times.system)
        return used

    def report(self) -> dict:
        seconds = time.monotonic() - self.began
        end = self._read()
        machine = self.psutil.cpu_times()

        def busy(t):
            return t.user + t.system + t.nice + getattr(t, "irq", 0) + getattr(t, "softirq", 0)

        groups = defaultdict(float)
        for pid, (group, used) in end.items():
            before = self.start.get(pid, (group, 0.0))[1]
            groups[group] += max(0.0, used - before)
        return {
            "seconds": round(seconds),
            "cores busy (whole machine)": round((busy(machine) - busy(self.machine)) / seconds, 2),
            "cores busy (by process)": {
                n: round(v / seconds, 2) for n, v in sorted(groups.items())
            },
            "load before": [round(x, 2) for x in self.load],
            "load after": [round(x, 2) for x in os.getloadavg()],
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=["procfile", "run"], required=True)
    parser.add_argument("--seconds", type=float, default=180)
    parser.add_argument("--bot-tables", type=int, default=10)
    parser.add_argument("--person-tables", type=int, default=5)
    parser.add_argument("--timeout-tables", type=int, default=3)
    parser.add_argument(
        "--think", type=float, default=1.0, help="seconds a person takes to choose each move"
    )
    parser.add_argument(
        "--motion",
        choices=["reduce", "no-preference"],
        default="reduce",
        help="the pages' prefers-reduced-motion",
    )
    parser.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a variable for the set's processes, e.g. WORKER_CONCURRENCY=1 (to find out why)",
    )
    parser.add_argument("--logs", type=Path, help="keep the processes' logs in this folder")
    parser.add_argument("--json", type=Path, help="write the raw figures there")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        env = set_environment(args.set, folder)
        env.update(x.split("=", 1) for x in args.env)
        prepare(args.set == "procfile", env)
        processes, base, notes = start(args.set, env, folder)
        print(f"set {args.set}: {', '.join(processes)} at {base}", *notes, sep="\n", flush=True)
        try:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's loop is this thread's
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
                )
                tables, watch, started, ended, used = play(args, browser, base, folder, processes)
                browser.close()
        finally:
            stop(list(processes.values()))
            if args.logs:
                args.logs.mkdir(parents=True, exist_ok=True)
                for log in folder.glob("*.log"):
                    shutil.copy(log, args.logs / log.name)
        report(args, tables, watch, started, ended, used, folder, processes)


def report(args, tables, watch, started, ended, used, folder, processes) -> None:
    replies = bot_replies(watch, started)
    late = timeouts(tables, watch, started, ended)
    ran = tasks(folder, processes, tables, started, ended)
    made = moves_made(tables, started, ended)
    seconds = ended - started
    print(
        f"\n== set {args.set}, {seconds:.0f} s, think {args.think} s, motion {args.motion}",
        *args.env,
        "==",
    )
    print(
        f"tables: {args.bot_tables} left to bots, {args.person_tables} with a person in "
        f"Chromium, {args.timeout_tables} where the person never moves; replaced when over: "
        f"{dict(watch.replaced)}"
    )
    print(f"moves made in the run: {made['made']}")
    print(
        f"\nbot replies on the person's screen ({len(replies['intervals'])} bot moves, "
        f"{replies['clicks']} clicks; page pause {replies['pause']} s; "
        f"shown at once with the move after them: {replies['together']}; "
        f"after a move of the person's with no click seen: {replies['unclicked']}; "
        f"hidden ticks: {replies['hidden']}):"
    )
    if replies["intervals"]:
        print(f"  after the move before (or the click): {fmt(replies['intervals'])}")
        for label, key in (
            ("the first reply, after the click", "after_click"),
            ("      of which the click to the own move on screen", "own"),
            ("      and the own move to the reply", "then"),
            ("a bot's move after a bot's", "after_bot"),
        ):
            if replies[key]:
                print(f"    {label}: {fmt(replies[key])}")
        print(f"  server, the move before to the bot's: {fmt(replies['server'])}")
        print(f"  server, the person's move to the first bot reply: {fmt(replies['first_reply'])}")
        slow = replies["slow"]
        print(
            f"  over {BOT_GOAL} s: {len(slow)}, of which {replies['late_by_server']} made by "
            f"the server more than {BOT_GOAL / 2} s after the move before was on screen"
        )
        for wait, server, page, game, number in slow[:8]:
            print(
                f"    {wait * 1000:5.0f} ms: made {server * 1000:5.0f} ms after the move before, "
                f"on screen {page * 1000:5.0f} ms after that (game {game}, move {number})"
            )
    print(
        f"\ntimeouts ({len(late['lateness'])}, by table kind {late['by_kind']}; "
        f"deadline not seen: {late['unknown']}; 'I'm back' said {watch.comebacks} times):"
    )
    if late["lateness"]:
        print(f"  lateness after the deadline: {fmt(late['lateness'])}")
    print(f"\ntasks ({ran['states']}):")
    for (name, task), times in sorted(ran["by_process"].items()):
        print(
            f"  {name:8} {task:14} {len(times):6} tasks, max {max(times) * 1000:5.0f} ms, "
            f"p95 {sorted(times)[int(0.95 * len(times))] * 1000:4.0f} ms, busy "
            f"{sum(times) / seconds:.2f} of a process"
        )
    for (task, kind), times in sorted(ran["by_kind"].items()):
        print(
            f"  {task:14} at {kind:8} tables: {len(times):6} tasks, "
            f"max {max(times) * 1000:5.0f} ms, {ran['idle'][(task, kind)]} found nothing to do"
        )
    longest = [t for (n, task), ts in ran["by_process"].items() if task != "think" for t in ts]
    print(f"  longest task but Expert's think: {max(longest, default=0) * 1000:.0f} ms")
    gaps = made["bot_table_gaps"]
    if gaps:
        print(f"\ntables left to bots, time between two of their moves: {fmt(gaps)}")
    if watch.unacked:
        print(
            f"\nunacknowledged messages (Redis, each second): max {max(watch.unacked)}, "
            f"median {sorted(watch.unacked)[len(watch.unacked) // 2]}"
        )
    print(f"queues, most messages waiting at once: {dict(watch.queued)}")
    print(
        f"HTTP answers >= 300 in the pages (a 302: a move sent without htmx): {dict(watch.errors)}"
    )
    restarts = {
        name: (folder / f"{name}.log").read_text(errors="replace").count("exited (")
        for name in processes
    }
    print(f"processes restarted by their line's loop: {restarts}")
    print(f"\nCPU: {json.dumps(used)}")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "set": args.set,
                    "seconds": seconds,
                    "started": started,
                    "replies": replies,
                    "timeouts": late,
                    "tasks": {f"{k[0]} {k[1]}": v for k, v in ran["by_process"].items()},
                    "unacked": watch.unacked,
                    "queued": watch.queued,
                    "cpu": used,
                    "made": made,
                    "pages": watch.pages,
                }
            )
        )


if __name__ == "__main__":
    main()
