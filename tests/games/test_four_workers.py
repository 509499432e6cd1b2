"""Several workers on several machines never make a move twice or send an email or a push
message twice: four Celery worker processes against one PostgreSQL and Redis (PostgreSQL +
Redis).

Three games are played at once, each by two people (at random, in this process) and two bots
(played by the workers). Every task this process queues goes to the broker four times, every
email and push message is queued again while it is being sent, a lost email is left to several
sweeps at once: the four workers race for the same game and the same message. The database, a
real SMTP server and a push service then show each move made once, as planned, and each email
sent once, and each push message once to each of the two browsers it is for."""

import asyncio
import email
import itertools
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from contextlib import contextmanager
from datetime import timedelta
from email import policy

import pytest
import redis as redis_client
from django.db.models import F

from games import engine, push, queue
from games.actions import ActionError, create_game, invite_player, join_game, submit_move
from games.actions.deadlines import LOST_EMAIL
from games.actions.moves import site_bot
from games.models import Game, MoveRecord, PendingEmail, SentEmail
from tests.servers import ROOT, broker, free_port, wait_for

from .push_service import Browser, browser_decrypt, running

REDIS = "redis://127.0.0.1:6379/9"  # a database of its own: flushed at the start
QUEUES = ("play", "think", "catchup", "email", "sweep")  # every queue, in each worker
WORKERS = 4
COPIES = 4  # each task this process queues goes to the broker this many times
SEND_SECONDS = 0.3  # the SMTP server answers each email this late: copies meet the claim
PEOPLE = (0, 1)  # seats: alice, and the person she invites
BOTS = {2: "easy", 3: "easy"}
MOVES = range(60, 130)  # a game this long: long enough to race, short enough to be quick
DAY = 24 * 3600
DEADLINE = 120  # seconds for the games to end: a bound on a hang (they take about 10)


@contextmanager
def smtp_server():
    """A real SMTP server on a free port: ``(port, received)``, each email received as
    ``(recipient, subject)``, stored before the answer as a real server does."""
    from aiosmtpd.controller import Controller

    received = []

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            message = email.message_from_bytes(envelope.content, policy=policy.default)
            received.extend((to, str(message["Subject"])) for to in envelope.rcpt_tos)
            await asyncio.sleep(SEND_SECONDS)
            return "250 OK"

    port = free_port()
    controller = Controller(Handler(), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield port, received
    finally:
        controller.stop()


@contextmanager
def workers(env: dict, folder):
    """``WORKERS`` Celery workers of every queue, each with its log file, ready; stopped after."""
    logs = [folder / f"w{n}.log" for n in range(1, WORKERS + 1)]
    started = []
    try:
        for n, log in enumerate(logs, start=1):
            command = [sys.executable, "-m", "celery", "-A", "nyet_site", "worker"]
            command += ["--pool=solo", "--loglevel=info", f"--queues={','.join(QUEUES)}"]
            command += [f"--hostname=w{n}@%h", "--without-heartbeat"]
            command += ["--without-mingle", "--without-gossip"]
            started.append(
                subprocess.Popen(
                    command,
                    cwd=ROOT,
                    env=env,
                    stdout=log.open("w"),
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
        ready = wait_for(lambda: all(" ready." in log.read_text() for log in logs), 30)
        assert ready, "the workers did not start"
        yield logs
    finally:
        for worker in started:
            os.killpg(worker.pid, signal.SIGTERM)
        for worker in started:
            worker.wait(timeout=30)


@contextmanager
def every_task_sent_again(monkeypatch):
    """Each task this process queues goes to the broker ``COPIES`` times, but those named in
    the set it yields, which are lost (never sent)."""
    publish = queue.publish
    lost = set()

    def publish_copies(task_name, *args, **options):
        if task_name in lost:
            return False
        return all([publish(task_name, *args, **options) for _ in range(COPIES)])

    monkeypatch.setattr(queue, "publish", publish_copies)
    yield lost


def settled(client) -> bool:
    """Nothing waits in a queue and no worker holds a task (late acks: until it is done), and
    still so a moment later (a task taken from its queue is held an instant after)."""

    def idle():
        return not any(client.llen(name) for name in QUEUES) and not client.hlen("unacked")

    if not idle():
        return False
    time.sleep(0.3)
    return idle()


def tasks_done(log: str) -> list[tuple[str, str]]:
    """(task name, what it returned) of each task a worker's log says it finished."""
    found = re.findall(r"Task games\.tasks\.(\w+)\[[^\]]+\] succeeded in \S+: (.*)", log)
    return [(name, result.strip()) for name, result in found]


def occasion(subject: str) -> str:
    """The winner's game-over email says so: one occasion either way."""
    return re.sub(r"^You won game (\d+)!$", r"Game \1 is over", subject)


def person_to_move(state, rng: random.Random) -> dict | None:
    """The people's move (a random legal one, of the first person who must act), or None while
    a bot must act: the people wait for the bots, so that a game goes as planned."""
    acting = engine.to_act(state)
    if any(seat in BOTS for seat in acting):
        return None
    for seat in PEOPLE:
        legal = engine.view(state, seat)["legal"]
        if legal:
            return rng.choice(legal)
    return None


def planned_game(seed: int, version: int) -> list[dict]:
    """The moves of the game dealt from ``seed`` to the first point target, started at
    ``version``, as this test plays it: each bot's as the site chooses it (seeded by the game's
    version), the people's by ``person_to_move`` with ``random.Random(seed)``."""
    state, rng, moves = engine.new_game(len(PEOPLE) + len(BOTS), seed, 1), random.Random(seed), []
    while state.phase != engine.OVER and len(moves) < MOVES.stop:
        seat = next((s for s in engine.to_act(state) if s in BOTS), None)
        if seat is None:
            move = engine.move_from_json(person_to_move(state, rng))
        else:
            move = site_bot(BOTS[seat], f"{seed}/{version}/{seat}").choose(engine.view(state, seat))
        moves.append(engine.move_to_json(move))
        state = engine.play(state, move).state
        version += 1
    return moves


def short_deals(version: int):
    """Seeds whose planned game is ``MOVES`` long: the same few deals every run."""
    for seed in itertools.count(1):
        if len(planned_game(seed, version)) in MOVES:
            yield seed


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_four_workers_make_each_move_and_send_each_email_once(
    on_postgres, alice, make_person, tmp_path, monkeypatch
):
    from django.db import connection

    client = redis_client.Redis.from_url(REDIS)
    client.flushdb()
    public, private = push.generate_keys()
    with smtp_server() as (port, received), running() as service:
        service.delay = SEND_SECONDS
        browsers = {name: Browser() for name in ("phone", "laptop")}
        for name, browser in browsers.items():
            browser.subscribe(alice, f"{service.origin}/push/{name}")
        env = {
            **os.environ,
            "CELERY_BROKER_URL": REDIS,
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "DATABASE_URL": "postgresql://root@127.0.0.1:5432/" + connection.settings_dict["NAME"],
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": str(port),
            "EMAIL_USE_TLS": "false",
            "EMAIL_TIMEOUT": "5",
            "VAPID_PUBLIC_KEY": public,
            "VAPID_PRIVATE_KEY": private,
        }
        with (
            workers(env, tmp_path) as logs,
            broker(REDIS),
            every_task_sent_again(monkeypatch) as lost,
        ):
            tables = play_three_games(alice, make_person, lost, client)
            finished = wait_for(lambda: PendingEmail.objects.count() == 0 and settled(client))
            assert finished, "the workers did not finish"
            sent = Counter((to, occasion(subject)) for to, subject in received)
            pushed = Counter(
                (
                    path,
                    occasion(json.loads(browser_decrypt(body, browser.key, browser.auth))["title"]),
                )
                for path, _, body in service.requests
                for name, browser in browsers.items()
                if path == f"/push/{name}"
            )
    client.flushdb()

    for game, _, started_at in tables:
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        records = list(MoveRecord.objects.filter(game=game))
        assert [r.number for r in records] == list(range(1, game.moves_made + 1))
        assert game.version == started_at + game.moves_made, "a version without its move"
        assert [r.move for r in records] == planned_game(game.seed, started_at), (
            "each move made once, for the version it was due at"
        )
        moves = [engine.move_from_json(r.move) for r in records]
        replayed = engine.replay(game.players, game.seed, game.target, moves)
        assert engine.state_to_json(replayed) == game.state, "the move log rebuilds the game"
    expected = Counter()
    for game, invitee, _ in tables:
        expected[(invitee.email, "alice invites you to play Nyet!")] += 1
        expected[(alice.email, f"Game {game.pk} has started")] += 1
        expected[(alice.email, f"Game {game.pk} is over")] += 1
        expected[(invitee.email, f"Game {game.pk} is over")] += 1
    assert sent == expected, "each email exactly once"
    # alice's occasions, to each of her browsers
    expected_pushes = Counter(
        (f"/push/{name}", occasion)
        for name in browsers
        for (to, occasion) in expected.elements()
        if to == alice.email
    )
    assert pushed == expected_pushes, "each push message exactly once to each browser"
    assert SentEmail.objects.filter(device=None).count() == len(expected)
    assert SentEmail.objects.exclude(device=None).count() == len(expected_pushes)
    assert PendingEmail.objects.count() == 0

    # The proof is not hollow: the workers shared the work and turned the copies away.
    failures = [
        line
        for log in logs
        for line in log.read_text().splitlines()
        if "ERROR" in line or "Traceback" in line
    ]
    assert failures == [], "no task failed"
    done = [tasks_done(log.read_text()) for log in logs]
    bot_players = [tasks for tasks in done if any(t == "play_bots" and r != "0" for t, r in tasks)]
    assert len(bot_players) >= 2, "at least two workers played bots"
    everything = Counter(task for tasks in done for task in tasks)
    assert everything[("play_bots", "0")] > 0, "copies of a bot turn did nothing"
    assert everything[("send_email", "True")] == len(expected) + len(expected_pushes)
    assert everything[("send_email", "False")] > 0, "copies of an email sent nothing"
    sweeps = [result for name, result in everything.elements() if name == "sweep"]
    assert len(sweeps) >= 2 * COPIES, "several sweeps at once"
    assert sum("'emails_requeued': 1" in result for result in sweeps) == 1, "the lost email, once"


def play_three_games(alice, make_person, lost: set, client) -> list[tuple[Game, object, int]]:
    """Three tables of alice, an invited person and two easy bots, each dealt from a seed of
    ``short_deals``, played to their end; the first table's invitation is lost and left to the
    sweeps. Returns (game, invitee, the version the game started at) of each."""
    tables = []
    # A game starts at version 1 (its table made at 0, then full).
    for name, seed in zip(("carol", "dave", "erin"), short_deals(version=1), strict=False):
        invitee = make_person(name)
        game = create_game(
            alice,
            players=len(PEOPLE) + len(BOTS),
            bots=[None, *BOTS.values()],
            target=1,
            time_control=Game.TimeControl.CORRESPONDENCE,
            move_seconds=DAY,
        )
        Game.objects.filter(pk=game.pk).update(seed=seed)
        if not tables:
            lost.add("games.tasks.send_email")
        invite_player(alice, game.pk, name)
        lost.clear()
        tables.append((game, invitee, seed))
    # The first invitation's task was lost long enough ago: sweeps that start together on the
    # idle workers find it.
    lost_email = PendingEmail.objects.get(kind="invitation", args__0=tables[0][0].pk)
    PendingEmail.objects.filter(pk=lost_email.pk).update(
        queued_at=F("queued_at") - LOST_EMAIL - timedelta(seconds=1)
    )
    assert wait_for(lambda: settled(client)), "the workers are busy"
    queue.publish("games.tasks.sweep")
    rngs, started_at = {}, {}
    for game, invitee, seed in tables:
        started_at[game.pk] = join_game(invitee, game.pk).version  # the table is full: it starts
        rngs[game.pk] = random.Random(seed)  # as planned_game's
    seen_emails = {lost_email.pk}
    next_sweep = 0.0
    deadline = time.monotonic() + DEADLINE
    while Game.objects.filter(pk__in=rngs).exclude(status=Game.Status.FINISHED).exists():
        assert time.monotonic() < deadline, "the games did not end"
        if time.monotonic() > next_sweep:  # several sweeps at once, every second
            queue.publish("games.tasks.sweep")
            next_sweep = time.monotonic() + 1
        # An email being sent (the SMTP server is slow) is queued again meanwhile.
        for pk in PendingEmail.objects.exclude(pk__in=seen_emails).values_list("pk", flat=True):
            seen_emails.add(pk)
            queue.publish("games.tasks.send_email", pk, queue="email")
        moved = [
            people_move(game.pk, (alice, invitee), rngs[game.pk]) for game, invitee, _ in tables
        ]
        if not any(moved):
            time.sleep(0.05)
    return [(game, invitee, started_at[game.pk]) for game, invitee, _ in tables]


def people_move(game_id: int, people, rng: random.Random) -> bool:
    """The people's move in this game, if it is theirs (``person_to_move``); whether one was
    made. The bots' moves are the workers'."""
    game = Game.objects.get(pk=game_id)
    if game.status != Game.Status.ACTIVE:
        return False
    move = person_to_move(engine.state_from_json(game.state), rng)
    if move is None:
        return False
    seat = move.pop("seat")
    try:
        submit_move(people[seat], game.pk, game.version, move)
    except ActionError as refusal:
        raise AssertionError(f"nobody else moves for a person: {refusal.message}") from None
    return True
