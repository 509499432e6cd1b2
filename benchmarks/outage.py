"""Broker outages: the Procfile's workers, beat and live tick on PostgreSQL and a Redis of their
own, live tables whose person never moves (their clock runs out every few seconds), and that
Redis cut several times.

    python benchmarks/outage.py [--tables 5] [--people-tables 0] [--players 3]
        [--move-seconds 5] [--outages 2] [--seconds 15] [--between 30] [--warmup 20]
        [--cut kill|pause] [--json FILE] [--keep FOLDER]

It uses its own database, ``nyet_outage`` (made afresh here), and starts its own
``redis-server`` on a free port, which is the broker, the cache and the live push at once
(``REDIS_URL``), as in production. The processes are the ``Procfile``'s lines, run as honcho runs
them but each on its own, so that one exiting stops nothing: ``play`` (``PLAY_CONCURRENCY=2``),
``worker``, ``tick`` and ``beat``, with the production settings (no web process: nobody looks).

The tables: ``--tables`` live tables of ``--players`` seats, one person and Easy bots, and
``--people-tables`` where every seat is a person. Nobody moves: each person's clock
(``--move-seconds``; the site offers a minute at least, so the clock is set in the database right
after the start) runs out at every turn of theirs, and the tick plays the stand-in for them.
At a table with bots, a timeout during an outage is followed by a bot turn, which waits for the
broker; at a table of people only, timeouts follow each other with no broker at all. After
three timeouts in a row a seat goes on autopilot; the script then says "I'm back" for it
(``come_back``), as a person would, so that timeouts keep coming. The tables are made a moment
apart, so that their clocks do not run out together; one that ends is replaced by a new one.

After ``--warmup`` seconds, Redis is cut ``--outages`` times for ``--seconds`` each, with
``--between`` seconds after each return. ``--cut kill``: SIGKILL, then a new server on the same
port, empty (it keeps nothing on disk: every message queued is lost, as in a crash);
``--cut pause``: SIGSTOP, then SIGCONT (a Redis that hangs, its connections open, then answers
with everything it had).

What it reports:

- whether a process exited (and what its log says about the broker);
- for each timeout (``MoveRecord.timeout``): its ``created_at`` minus the deadline it played,
  for the deadlines that fell due during an outage, in the 10 s after one, and the rest. Each
  deadline the site sets is recorded by a trigger on ``games_seat`` (in this database only), so
  a timeout is matched to the last deadline of its seat set before it and due by then;
- the seats still waiting more than 2 s past their deadline, at worst, sampled every second;
- for each return of the broker, the tables whose bots had a turn waiting then, and how long
  after the return each one's bots moved;
- the moves made during the outages (the tick's timeouts need no broker);
- lost or doubled moves: each game's moves numbered 1..N and replaying to its stored state
  (``benchmarks/load/run.py``'s check);
- every second, the unacknowledged messages (kombu's hash ``unacked``), by the worker that took
  them (``play``, or ``worker`` for ``catchup``, ``email`` and ``sweep``).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.ports import free_port  # noqa: E402

DATABASE = "nyet_outage"
DATABASE_URL = f"postgresql://root@127.0.0.1:5432/{DATABASE}"
PROCESSES = ("play", "worker", "tick", "beat")
READY = {"play": " ready.", "worker": " ready.", "tick": "live tick every", "beat": "Starting"}
WORKER_OF_QUEUE = {"play": "play", "catchup": "worker", "email": "worker", "sweep": "worker"}
OVERDUE = timedelta(seconds=2)  # a seat this far past its deadline: its timeout is late
AFTER = 10.0  # seconds after a return that count as "just after" it

# Every deadline the site sets, with when it was set: the seat's row keeps only the last.
DEADLINE_LOG = """
CREATE TABLE outage_deadline (
    id bigserial PRIMARY KEY,
    game_id integer NOT NULL,
    position smallint NOT NULL,
    deadline timestamptz NOT NULL,
    set_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE FUNCTION outage_deadline() RETURNS trigger AS $$
BEGIN
    IF NEW.deadline IS NOT NULL
       AND (TG_OP = 'INSERT' OR NEW.deadline IS DISTINCT FROM OLD.deadline) THEN
        INSERT INTO outage_deadline (game_id, position, deadline)
        VALUES (NEW.game_id, NEW.position, NEW.deadline);
    END IF;
    RETURN NEW;
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER outage_deadline AFTER INSERT OR UPDATE OF deadline ON games_seat
    FOR EACH ROW EXECUTE FUNCTION outage_deadline();
"""


def environment(folder: Path, redis_url: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NYET_", "DJANGO_"))}
    for name in ("CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER", "EMAIL_HOST"):
        env.pop(name, None)
    env.update(
        NYET_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(50),
        DEBUG="false",
        SITE_URL="https://nyet.example.org",
        ALLOWED_HOSTS="nyet.example.org,127.0.0.1",
        DATABASE_URL=DATABASE_URL,
        REDIS_URL=redis_url,
        PLAY_CONCURRENCY="2",
        WORKER_CONCURRENCY="2",
        BEAT_SCHEDULE=str(folder / "beat"),
        PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}",  # the Procfile's commands
    )
    return env


def fresh_database(env: dict) -> None:
    import psycopg

    with psycopg.connect("postgresql://root@127.0.0.1:5432/postgres", autocommit=True) as db:
        db.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        db.execute(f"CREATE DATABASE {DATABASE}")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    with psycopg.connect(DATABASE_URL, autocommit=True) as db:
        db.execute(DEADLINE_LOG)


class Redis:
    """This run's redis-server: cut and brought back as ``--cut`` says."""

    def __init__(self, port: int, folder: Path):
        self.port, self.folder = port, folder
        self.log = (folder / "redis.log").open("a")
        self.server: subprocess.Popen | None = None

    def start(self) -> None:
        import redis

        self.server = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
            + ["--save", "", "--appendonly", "no", "--dir", str(self.folder)],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        client = redis.Redis(port=self.port, socket_connect_timeout=0.5)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)

    def cut(self, how: str) -> None:
        if how == "kill":
            self.server.kill()
            self.server.wait()
        else:
            self.server.send_signal(signal.SIGSTOP)

    def restore(self, how: str) -> None:
        if how == "kill":
            self.start()
        else:
            self.server.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        self.server.send_signal(signal.SIGCONT)
        self.server.kill()
        self.server.wait()


def start_processes(env: dict, folder: Path) -> dict[str, subprocess.Popen]:
    lines = dict(
        line.split(": ", 1) for line in (ROOT / "Procfile").read_text().splitlines() if line
    )
    started = {}
    for name in PROCESSES:
        started[name] = subprocess.Popen(
            lines[name],
            shell=True,
            cwd=ROOT,
            env=env,
            stdout=(folder / f"{name}.log").open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    deadline = time.monotonic() + 120
    for name in PROCESSES:
        while READY[name] not in (folder / f"{name}.log").read_text():
            assert started[name].poll() is None, (folder / f"{name}.log").read_text()
            assert time.monotonic() < deadline, f"{name} did not start"
            time.sleep(0.2)
    return started


@dataclass
class Run:
    outages: list = field(default_factory=list)  # (cut, back) wall-clock times
    waiting_bots: list = field(default_factory=list)  # for each return: games, bots to move
    unacked: list = field(default_factory=list)  # (time, {worker: count}) or (time, None)
    overdue: list = field(default_factory=list)  # (time, seats past their deadline by 2 s)
    exits: dict = field(default_factory=dict)  # name: (time, return code)
    comebacks: int = 0
    tables_made: int = 0


def new_table(people: list, players: int, move_seconds: int) -> int:
    """A live table of ``people`` (who never move) and Easy bots in the other seats."""
    from django.db import transaction
    from django.db.models import F

    from games.actions import create_game, join_game
    from games.models import Game, Seat

    seconds = timedelta(seconds=move_seconds)
    bots = ["easy"] * (players - len(people)) + [None] * (len(people) - 1)
    # One transaction: the first bot task is queued when it commits, so no turn starts on the
    # minute the table was made with.
    with transaction.atomic():
        game = create_game(people[0], players=players, bots=bots, move_seconds=60)
        for person in people[1:]:
            join_game(person, game.pk)
        Game.objects.filter(pk=game.pk).update(move_seconds=move_seconds)
        Seat.objects.filter(game=game, deadline__isnull=False).update(
            deadline=F("acting_since") + seconds, reminder_due=F("acting_since") + seconds * 0.75
        )
    return game.pk


def sample_unacked(client) -> dict | None:
    import redis

    try:
        held = client.hvals("unacked")
    except redis.RedisError:
        return None
    counts = Counter()
    for raw in held:
        _, _, routing_key = json.loads(raw)
        counts[WORKER_OF_QUEUE.get(routing_key, routing_key)] += 1
    return dict(counts)


def bots_waiting(games) -> set[int]:
    """The games where a bot (or the stand-in of a seat on autopilot) is to move."""
    from django.db.models import Q

    from games.models import Seat

    return set(
        Seat.objects.filter(game_id__in=games, acting_since__isnull=False)
        .filter(~Q(user__bot_level="") | Q(autopilot=True))
        .values_list("game_id", flat=True)
    )


def cut_and_restore(args, redis_server: Redis, run: Run, tables: dict, lock) -> None:
    """The outages, on time whatever the main loop is waiting for."""
    from django.db import connection

    time.sleep(args.warmup)
    for _ in range(args.outages):
        redis_server.cut(args.cut)
        run.outages.append([time.time(), None])
        print(f"  broker cut at {time.strftime('%X')}", flush=True)
        time.sleep(args.seconds)
        with lock:
            games = list(tables)
        run.waiting_bots.append(sorted(bots_waiting(games)))
        redis_server.restore(args.cut)
        run.outages[-1][1] = time.time()
        print(f"  broker back at {time.strftime('%X')}", flush=True)
        time.sleep(args.between)
    connection.close()


def play(args, redis_server: Redis, processes: dict, port: int) -> Run:
    import redis
    from django.db import close_old_connections

    from accounts.models import User
    from games import clock
    from games.actions import come_back
    from games.models import Game, Seat

    run = Run()
    client = redis.Redis(port=port, socket_connect_timeout=0.2, socket_timeout=0.2)
    made = iter(range(1_000_000))

    def person():
        n = next(made)
        return User.objects.create_user(f"person{n}", f"person{n}@example.com", "a-long-pass-42")

    seated = [[person()] for _ in range(args.tables)]
    seated += [[person() for _ in range(args.players)] for _ in range(args.people_tables)]
    tables, lock = {}, threading.Lock()
    for people in seated:
        # one after the other, so that their clocks run out at different moments
        tables[new_table(people, args.players, args.move_seconds)] = people
        time.sleep(args.move_seconds / len(seated))
    run.tables_made = len(tables)
    print(
        f"{args.tables} tables of a person and bots, {args.people_tables} of people only; "
        f"{args.outages} outage(s) of {args.seconds:.0f} s ({args.cut}); about "
        f"{args.warmup + args.outages * (args.seconds + args.between):.0f} s",
        flush=True,
    )
    outages = threading.Thread(
        target=cut_and_restore, args=(args, redis_server, run, tables, lock), daemon=True
    )
    outages.start()
    next_second = 0.0
    while outages.is_alive():
        beat = time.monotonic()
        for seat in Seat.objects.filter(
            game_id__in=list(tables), autopilot=True, resigned_at__isnull=True
        ).select_related("user"):
            come_back(seat.user, seat.game_id)
            run.comebacks += 1
        if beat >= next_second:
            next_second = beat + 1
            now = time.time()
            run.unacked.append((now, sample_unacked(client)))
            overdue = Seat.objects.filter(
                game_id__in=list(tables),
                game__status=Game.Status.ACTIVE,
                deadline__lt=clock.now() - OVERDUE,
            ).count()
            run.overdue.append((now, overdue))
            for done in Game.objects.filter(pk__in=list(tables)).exclude(status=Game.Status.ACTIVE):
                people = tables[done.pk]
                game_id = new_table(people, args.players, args.move_seconds)
                with lock:
                    del tables[done.pk]
                    tables[game_id] = people
                run.tables_made += 1
            for name, process in processes.items():
                if name not in run.exits and process.poll() is not None:
                    run.exits[name] = (now, process.returncode)
                    print(f"  {name} exited with {process.returncode}", flush=True)
        close_old_connections()
        time.sleep(max(0.0, 0.2 - (time.monotonic() - beat)))
    return run


def stop(processes: dict) -> dict:
    for process in processes.values():
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    codes = {}
    for name, process in processes.items():
        try:
            codes[name] = process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            codes[name] = f"killed after 60 s ({process.wait()})"
    return codes


# --- what the run says ---------------------------------------------------------------------------


def phase_of(moment: float, outages: list) -> str:
    for k, (cut, back) in enumerate(outages, start=1):
        if cut <= moment < back:
            return f"during outage {k}"
        if back <= moment < back + AFTER:
            return f"{AFTER:.0f} s after outage {k}"
    return "otherwise"


def timeouts(run: Run) -> dict:
    from django.db import connection

    from games.models import MoveRecord

    deadlines = defaultdict(list)
    with connection.cursor() as cursor:
        cursor.execute("SELECT game_id, position, deadline, set_at FROM outage_deadline")
        for game_id, position, deadline, set_at in cursor.fetchall():
            deadlines[(game_id, position)].append((set_at.timestamp(), deadline.timestamp()))
    late = defaultdict(list)
    unmatched = 0
    for game_id, seat, created_at in MoveRecord.objects.filter(timeout=True).values_list(
        "game_id", "seat", "created_at"
    ):
        at = created_at.timestamp()
        known = [(s, d) for s, d in deadlines[(game_id, seat)] if s <= at and d <= at]
        if not known:
            unmatched += 1
            continue
        due = max(known)[1]
        late[phase_of(due, run.outages)].append(at - due)
    return {"late": dict(late), "unmatched": unmatched}


def bot_lag(run: Run) -> list[list[float]]:
    """For each return: how long after it each waiting table's bots moved (None: never)."""
    from games.models import MoveRecord

    lags = []
    for (_, back), games in zip(run.outages, run.waiting_bots, strict=True):
        first = {}
        for game_id, created_at in (
            MoveRecord.objects.filter(game_id__in=games, by_bot=True, timeout=False)
            .filter(created_at__gte=_moment(back))
            .order_by("created_at")
            .values_list("game_id", "created_at")
        ):
            first.setdefault(game_id, created_at.timestamp() - back)
        lags.append([first.get(game) for game in games])
    return lags


def _moment(timestamp: float):
    from datetime import UTC, datetime

    return datetime.fromtimestamp(timestamp, UTC)


def moves_during_outages(run: Run) -> Counter:
    from games.models import MoveRecord

    made = Counter()
    for cut, back in run.outages:
        for timeout, by_bot, autopilot in MoveRecord.objects.filter(
            created_at__gte=_moment(cut), created_at__lt=_moment(back)
        ).values_list("timeout", "by_bot", "autopilot"):
            made[
                "timeouts"
                if timeout
                else "autopilot"
                if autopilot
                else "bots"
                if by_bot
                else "people"
            ] += 1
    return made


def logs(folder: Path) -> dict:
    said = {}
    for name in PROCESSES:
        text = (folder / f"{name}.log").read_text()
        said[name] = {
            "connection lost": text.count("Connection to broker lost"),
            "reconnected": max(0, text.count("Connected to redis") - 1),  # the first: startup
            "unrecoverable": text.count("Unrecoverable error"),
            "tracebacks": text.count("Traceback"),
            "error lines": len(re.findall(r"\b(?:ERROR|CRITICAL)\b", text)),
        }
    return said


def reconnections(folder: Path, outages: list) -> dict[str, list]:
    """For each worker and each return of the broker: how long after it the worker said it was
    connected again (None: it never lost its connection, or never came back)."""
    found = {}
    for name in ("play", "worker"):
        said = re.findall(
            r"\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}): INFO/MainProcess\] Connected to",
            (folder / f"{name}.log").read_text(),
        )
        times = [
            time.mktime(time.strptime(t, "%Y-%m-%d %H:%M:%S")) + int(ms) / 1000 for t, ms in said
        ]
        found[name] = [
            min((t - back for t in times[1:] if back <= t < back + 60), default=None)
            for _, back in outages
        ]
    return found


def spread(values: list[float]) -> str:
    if not values:
        return "none"
    values = sorted(values)
    p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
    return (
        f"{len(values)}: median {statistics.median(values):.2f} s, p95 {p95:.2f} s, "
        f"max {values[-1]:.2f} s"
    )


def report(args, run: Run, codes: dict, folder: Path) -> dict:
    from benchmarks.load.run import check
    from games.models import MoveRecord

    result = {"arguments": vars(args)}
    print(
        f"\n{run.tables_made} tables played, {MoveRecord.objects.count()} moves, "
        f'{run.comebacks} "I\'m back"'
    )
    print(
        "processes: "
        + (
            ", ".join(
                f"{n} EXITED rc={c} at +{t - run.outages[0][0]:.0f} s"
                for n, (t, c) in run.exits.items()
            )
            or "none exited"
        )
        + "; stopped at the end with "
        + ", ".join(f"{n}={c}" for n, c in codes.items())
    )
    result["exits"], result["stop codes"] = run.exits, codes
    result["logs"] = logs(folder)
    for name, said in result["logs"].items():
        print(f"  {name:<7} " + ", ".join(f"{k} {v}" for k, v in said.items()))
    result["outages"] = run.outages
    result["reconnected after"] = reconnections(folder, run.outages)
    for name, delays in result["reconnected after"].items():
        print(
            f"  {name} connected again "
            + ", ".join("-" if d is None else f"{d:.2f} s" for d in delays)
            + " after each return"
        )

    found = timeouts(run)
    result["timeouts"] = found
    print("timeouts, fired this long after their deadline:")
    for phase in sorted(found["late"]):
        print(f"  {phase:<22} {spread(found['late'][phase])}")
    if found["unmatched"]:
        print(f"  {found['unmatched']} timeouts with no deadline recorded before them")
    overdue = max((n for _, n in run.overdue), default=0)
    result["most seats overdue"] = overdue
    print(f"seats more than {OVERDUE.seconds} s past their deadline, at worst: {overdue}")

    lags = bot_lag(run)
    result["bot lag after return"] = lags
    for k, games in enumerate(lags, start=1):
        moved = [lag for lag in games if lag is not None]
        print(
            f"outage {k}: {len(games)} tables had bots to move at the return; they moved "
            f"{spread(moved)} after it"
            + (f"; {len(games) - len(moved)} never" if len(moved) < len(games) else "")
        )
    made = moves_during_outages(run)
    result["moves during outages"] = made
    print(
        "moves made during the outages: "
        + (", ".join(f"{v} {k}" for k, v in made.items()) or "none")
    )

    problems = check()
    result["problems"] = problems
    print(
        "moves lost or doubled: "
        + (
            "; ".join(problems)
            if problems
            else "none (every game's moves numbered 1..N, replaying to its stored state)"
        )
    )

    most = Counter()
    for _, counts in run.unacked:
        for worker, count in (counts or {}).items():
            most[worker] = max(most[worker], count)
    unreadable = sum(1 for _, counts in run.unacked if counts is None)
    result["most unacked"] = dict(most)
    print(
        "unacknowledged messages, at most: "
        + (", ".join(f"{w} {n}" for w, n in sorted(most.items())) or "none seen")
        + f" (sampled {len(run.unacked)} times, {unreadable} with Redis away)"
    )
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=5, help="of a person and bots")
    parser.add_argument("--people-tables", type=int, default=0, help="of people only")
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4, 5))
    parser.add_argument("--move-seconds", type=int, default=5)
    parser.add_argument("--outages", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=15, help="of each outage")
    parser.add_argument("--between", type=float, default=30, help="seconds after each return")
    parser.add_argument("--warmup", type=float, default=20)
    parser.add_argument("--cut", choices=("kill", "pause"), default="kill")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--keep", type=Path, help="copy the processes' logs to this folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        port = free_port()
        redis_server = Redis(port, folder)
        redis_server.start()
        env = environment(folder, f"redis://127.0.0.1:{port}/0")
        processes = {}
        try:
            fresh_database(env)
            os.environ.update(env)
            os.environ["DJANGO_SETTINGS_MODULE"] = "nyet_site.settings"
            import django

            django.setup()
            # This process's own failed publishes and pushes, during the outages, are expected.
            logging.disable(logging.ERROR)
            processes = start_processes(env, folder)
            run = play(args, redis_server, processes, port)
        finally:
            codes = stop(processes) if processes else {}
            redis_server.stop()
        result = report(args, run, codes, folder)
        if args.json:
            args.json.write_text(json.dumps(result, indent=1, default=str))
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            for log in folder.glob("*.log"):
                (args.keep / log.name).write_text(log.read_text())


if __name__ == "__main__":
    main()
