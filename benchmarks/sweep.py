"""The sweep at scale, and what a heap of due work does to a live player's bot reply.

    python benchmarks/sweep.py scale [--games 100000]
    python benchmarks/sweep.py backlog [--due 1000] [--moves 30]

Both need PostgreSQL and Redis (as in production) and use their own database, ``nyet_bench``
(created, migrated and emptied here).

``scale``: that many games in play, none due, then times ``due()`` (the whole sweep) and counts
its queries; then the same with 1,000 reminders and 1,000 timeouts due (only queued: the sweep
does no work itself).

``backlog``: real Celery workers on Redis, as production runs them: one for ``play`` (the bot
replies a player waits for), one (two processes) for ``catchup``, ``email`` and ``sweep``. A
person plays a live 4-player game against three Medium bots: ``--moves`` moves, then
``--due`` correspondence games run out of time and as many reminders come due at once, the
sweep runs, and the person plays ``--moves`` more while the workers work through that heap.
Prints the time from each of the person's moves to the bots' last reply (their turn again),
before and with the heap, and how long the heap took. A local SMTP server takes the emails.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import databases  # noqa: E402
from benchmarks.timing import fmt  # noqa: E402

DATABASE = "nyet_bench"
REDIS = "redis://127.0.0.1:6379/9"
os.environ["DATABASE_URL"] = f"postgresql://root@127.0.0.1:5432/{DATABASE}"
os.environ.setdefault("REDIS_URL", REDIS)
os.environ["CELERY_TASK_ALWAYS_EAGER"] = "false"
os.environ["BOT_PAUSE_SECONDS"] = "0"  # the bots answer as fast as they can
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nyet_site.settings")


def setup_django():
    import django

    django.setup()


def open_games(count: int, now, template) -> None:
    """``count`` correspondence games in play (copies of ``template``), none due."""
    from games.models import Game, Round, Seat

    rounds = list(template.rounds.all())
    assert not template.moves.exists(), "a game waiting for its first move"
    batch = 5000
    for start in range(0, count, batch):
        size = min(batch, count - start)
        games = Game.objects.bulk_create(
            [
                Game(
                    players=template.players,
                    time_control=Game.TimeControl.CORRESPONDENCE,
                    move_seconds=86400,
                    invite_code=f"bench-{start + i}",
                    status=Game.Status.ACTIVE,
                    seed=template.seed,
                    version=template.version,
                    state=template.state,
                    started_at=now,
                )
                for i in range(size)
            ]
        )
        seats = []
        for game in games:
            for seat in template.seats.all():
                seats.append(
                    Seat(
                        game=game,
                        position=seat.position,
                        user_id=seat.user_id,
                        acting_since=seat.acting_since and now,
                        deadline=seat.deadline and now + timedelta(hours=20),
                        reminder_due=seat.reminder_due and now + timedelta(hours=15),
                    )
                )
        Seat.objects.bulk_create(seats)
        Round.objects.bulk_create(
            [Round(game=game, number=r.number, dealer=r.dealer) for game in games for r in rounds]
        )


def template_game(person):
    """A real 2-player correspondence game of ``person`` against an Easy bot, waiting for them."""
    from games.actions import create_game
    from games.engine import state_from_json, to_act
    from games.models import Game

    while True:
        game = create_game(
            person, players=2, bots=["easy"], time_control="correspondence", move_seconds=86400
        )
        if to_act(state_from_json(game.state)) == (0,):
            return Game.objects.prefetch_related("seats").get(pk=game.pk)
        game.delete()


def make_due(count: int, now, fresh: list[int] | None = None) -> None:
    """Of the open games (or of ``fresh``, taking them off it), ``count`` out of time and
    ``count`` with a reminder due."""
    from games.models import Game, Seat

    if fresh is None:
        fresh = list(
            Game.objects.filter(status=Game.Status.ACTIVE, time_control="correspondence")
            .order_by("?")
            .values_list("pk", flat=True)[: 2 * count]
        )
    ids = [fresh.pop() for _ in range(2 * count)]
    late, remind = ids[:count], ids[count:]
    Seat.objects.filter(game_id__in=late, deadline__isnull=False).update(
        deadline=now - timedelta(seconds=1)
    )
    Seat.objects.filter(game_id__in=remind, deadline__isnull=False).update(
        reminder_due=now - timedelta(seconds=1), deadline=now + timedelta(hours=5)
    )


def timed_sweep(repeats: int = 5) -> tuple[list[float], int, dict]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.actions.deadlines import due

    times = []
    for _ in range(repeats):
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            found = due()
            times.append(time.perf_counter() - started)
    return times, len(queries), found


def scale(args) -> None:
    databases.fresh(DATABASE)
    setup_django()
    from accounts.models import User
    from games import clock, queue
    from games.models import Game

    queue.publish = lambda *a, **k: True  # measure the sweep, not the broker
    now = clock.now()
    person = User.objects.create_user("alice", "alice@example.com", "pw", email_turn="never")
    template = template_game(person)
    started = time.perf_counter()
    open_games(args.games, now, template)
    print(f"{Game.objects.count():,} games in play, made in {time.perf_counter() - started:.0f} s")
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    times, queries, found = timed_sweep()
    print(f"nothing due: {fmt(times)}, {queries} queries, found {found}")
    make_due(1000, now)
    times, queries, found = timed_sweep(repeats=1)
    print(f"1,000 timeouts and 1,000 reminders due: {fmt(times)}, {queries} queries, found {found}")
    times, queries, found = timed_sweep()
    print(f"the next sweeps (all queued already): {fmt(times)}, {queries} queries")


def smtp_sink():
    from aiosmtpd.controller import Controller

    class Sink:
        count = 0

        async def handle_DATA(self, server, session, envelope):
            Sink.count += 1
            await asyncio.sleep(0.05)  # a mail server is not instant
            return "250 OK"

    controller = Controller(Sink(), hostname="127.0.0.1", port=2525)
    controller.start()
    return controller, Sink


def start_worker(queues: str, concurrency: int, log: Path) -> subprocess.Popen:
    env = {
        **os.environ,
        "CELERY_BROKER_URL": REDIS,
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": "2525",
        "EMAIL_USE_TLS": "false",
    }
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "nyet_site",
            "worker",
            f"--queues={queues}",
            f"--concurrency={concurrency}",
            "--loglevel=warning",
            "--without-heartbeat",
            "--without-mingle",
            "--without-gossip",
            f"--hostname={queues}@bench",
        ],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def backlog(args) -> None:
    databases.fresh(DATABASE)
    setup_django()
    import redis

    from accounts.models import User
    from games import clock
    from games.actions import create_game
    from games.actions.deadlines import due
    from games.models import Game, PendingEmail

    redis.Redis.from_url(REDIS).flushdb()
    now = clock.now()
    alice = User.objects.create_user("alice", "alice@example.com", "pw", email_turn="never")
    bob = User.objects.create_user("bob", "bob@example.com", "pw")
    open_games(2 * args.due, now, template_game(alice))
    controller, sink = smtp_sink()
    logs = Path("/tmp/nyet-bench")
    logs.mkdir(exist_ok=True)
    workers = [
        start_worker("play", 1, logs / "play.log"),
        start_worker("catchup,email,sweep", 2, logs / "rest.log"),
    ]
    rng = random.Random(1)

    def late() -> int:
        return Game.objects.filter(status="active", seats__deadline__lte=clock.now()).count()

    try:
        time.sleep(8)  # the workers start
        game = create_game(bob, players=4, bots=["medium"] * 3, move_seconds=600)
        idle = play_moves(game, bob, rng, args.moves)
        make_due(args.due, clock.now())
        started = time.perf_counter()
        found = due()
        swept = time.perf_counter() - started
        assert found["timeouts"] == found["reminders"] == args.due, found
        heap = play_moves(game, bob, rng, args.moves)
        during = time.perf_counter() - started
        left, emails = late(), PendingEmail.objects.count()
        while late() or PendingEmail.objects.exists():
            time.sleep(1)
        cleared = time.perf_counter() - started
    finally:
        for worker in workers:
            os.killpg(worker.pid, signal.SIGTERM)
        for worker in workers:
            worker.wait(timeout=60)
        controller.stop()
    print(f"the sweep that found {args.due:,} timeouts and {args.due:,} reminders: {swept:.2f} s")
    print(f"bot replies before: {len(idle)} moves, {fmt(idle)}")
    print(f"bot replies with the heap: {len(heap)} moves in {during:.0f} s, {fmt(heap)}")
    print(f"at the end of those moves: {left} games still out of time, {emails} emails to send")
    print(
        f"the catch-up worker cleared everything {cleared:.0f} s after the sweep; "
        f"{sink.count} emails sent"
    )


def play_moves(game, person, rng, count: int) -> list[float]:
    """``count`` random moves of ``person`` (seat 0), each timed from the move to the bots'
    last reply (the person's turn again)."""
    from games import engine
    from games.actions import StaleVersion, submit_move

    waits = []
    while len(waits) < count:
        if not wait_for_turn(game):
            break
        state = engine.state_from_json(game.state)
        move = rng.choice(engine.view(state, 0)["legal"])
        del move["seat"]
        started = time.perf_counter()
        try:
            submit_move(person, game.pk, game.version, move)
        except StaleVersion:
            continue
        if not wait_for_turn(game):
            break
        waits.append(time.perf_counter() - started)
    return waits


def wait_for_turn(game, seconds: float = 60.0) -> bool:
    """Until the person must act or the game is over (after the bots' replies)."""
    from games import engine
    from games.models import Game

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            return False
        if 0 in engine.to_act(engine.state_from_json(game.state)):
            return True
        time.sleep(0.005)
    raise AssertionError("the bots did not answer within a minute")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    one = commands.add_parser("scale")
    one.add_argument("--games", type=int, default=100_000)
    two = commands.add_parser("backlog")
    two.add_argument("--due", type=int, default=1000)
    two.add_argument("--moves", type=int, default=40)
    args = parser.parse_args()
    {"scale": scale, "backlog": backlog}[args.command](args)


if __name__ == "__main__":
    main()
