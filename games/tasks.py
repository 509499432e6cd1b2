"""Celery tasks. Each takes ids (and the version it expects, where a game changes), calls the
actions, and is safe to run twice, at once and late: it does nothing when the game has moved on.
Deadlines live in the database: the live tick (``manage.py tick``, every second) and the periodic
``sweep`` find what is due and queue these. Which queue each goes to: ``games.queue``.

A task is short. The bots' tasks make moves for at most ``SLICE_SECONDS`` (a move started before
then is finished: a Hard bot's takes up to ``HARD_BOT_SECONDS``), then queue the rest of the
table's bot turns again, behind the work already queued for other tables: one table, even one
left to its bots for hundreds of moves, never holds a worker for long. Nothing here waits for a
person's sake: the pause that lets a person follow the bots' cards is the page's
(``BOT_PAUSE_SECONDS``, static/js/live.js)."""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from celery import shared_task
from django.db import connection

from games import clock, queue
from games.actions import play_bot_move, play_due_timeouts, queue_bot_turns
from games.actions.deadlines import due
from games.actions.notify import deliver
from games.actions.records import check_records, finished_since

log = logging.getLogger(__name__)

SLICE_SECONDS = 0.2
# SQLite (``make run``'s database) lets one process write at a time, and a writer that waits for
# the lock looks again at growing intervals, up to 100 ms apart: moves written back to back
# kept a person's move and the live tick waiting for a whole slice, slice after slice, behind
# tables left to their bots (benchmarks/live_tables.py --set run: replies p95 1.65 s, timeouts
# p95 2.5 s). On SQLite a worker leaves the lock free this long after each move of a slice, and
# its slices are shorter, as its one worker serves every table's queue in turn. Not a pace: on
# PostgreSQL (row locks), no gap.
SQLITE_GAP_SECONDS = 0.03
SQLITE_SLICE_SECONDS = 0.1


def _slice(move, game_id: int, version: int) -> int:
    """``move(game_id, version)`` until it has nothing to do or ``SLICE_SECONDS`` have passed;
    what is left is queued again (``queue_bot_turns``). How many moves were made."""
    started = time.perf_counter()
    sqlite = connection.vendor == "sqlite"
    gap = SQLITE_GAP_SECONDS if sqlite else 0.0
    length = SQLITE_SLICE_SECONDS if sqlite else SLICE_SECONDS
    moves = 0
    while time.perf_counter() - started < length:
        if moves and gap:
            time.sleep(gap)
        next_version = move(game_id, version)
        if next_version is None:
            return moves
        version = next_version
        moves += 1
    queue_bot_turns(game_id, version)
    return moves


@shared_task(ignore_result=True)
def play_bots(game_id: int, version: int) -> int:
    """The bot moves due at ``version``, one action (and transaction, and pushed version) per
    move, until a person must act, the game ends or the slice is over. Returns how many moves
    the bots made."""
    return _slice(play_bot_move, game_id, version)


@shared_task(ignore_result=True)
def play_timeouts(game_id: int, version: int) -> int:
    """The stand-in's moves for the seats of a game whose time ran out (the sweep's net for the
    tick); the bot turns that follow are queued. Returns how many timeouts were played."""
    return play_due_timeouts(game_id, version)


@shared_task(ignore_result=True)
def think(game_id: int, version: int) -> int:
    """``play_bots`` for a table with an Expert (correspondence only), whose moves take seconds
    each: on its own queue and workers (``think``), so that it never delays a live table's bot
    reply nor a timeout (``games.actions.turns.bots_task``). A slice is one Expert move. The
    Expert chooses before it locks the game (``play_bot_move``'s ``think_first``)."""
    return _slice(_think_first, game_id, version)


def _think_first(game_id: int, version: int) -> int | None:
    return play_bot_move(game_id, version, think_first=True)


# The time limit ends a send stuck past every SMTP timeout well before the outbox's claim on
# the email (notifications.CLAIM) runs out; retries are the outbox's (due_at), not Celery's.
@shared_task(ignore_result=True, time_limit=120)
def send_email(pending_id: int) -> bool:
    """One email of the outbox; nothing when it went already or is being sent."""
    return deliver(pending_id)


@shared_task(ignore_result=True)
def sweep() -> dict:
    """Every minute: queue what is due (timeouts, stalled bot turns, emails)."""
    return due()


# Twice the beat's period (settings.CELERY_BEAT_SCHEDULE["records"]), so that a run that comes
# late or not at all leaves no finished game unchecked; a game checked twice costs a replay.
RECORDS_CHECK_HOURS = 2


# A replay costs milliseconds to tens of them: a batch keeps each task short, and the sweep
# queue's other work goes on between batches.
RECORDS_CHECK_BATCH = 50


@shared_task(ignore_result=True)
def check_recent_records() -> int:
    """Every hour: queue the check of the games finished in the last ``RECORDS_CHECK_HOURS``,
    ``RECORDS_CHECK_BATCH`` games a task (``check_records_of``). Returns how many games."""
    ids = finished_since(clock.now() - timedelta(hours=RECORDS_CHECK_HOURS))
    for start in range(0, len(ids), RECORDS_CHECK_BATCH):
        queue.publish("games.tasks.check_records_of", ids[start : start + RECORDS_CHECK_BATCH])
    return len(ids)


@shared_task(ignore_result=True)
def check_records_of(game_ids: list[int]) -> int:
    """Compare these games with the replay of their move log (``check_records``), and log each
    that differs, as an error, for ``manage.py rebuild_records``. Writes nothing, so it is safe
    to run twice or late. Returns how many differ."""
    differ = 0
    for game_id in game_ids:
        found = check_records(game_id)
        if found:
            differ += 1
            log.error("game %s differs from its replay: %s", game_id, "; ".join(found))
    return differ
