"""Celery tasks. Each takes ids (and the version it expects, where a game changes), calls the
actions, and is safe to run twice, at once and late: it does nothing when the game has moved on.
Deadlines live in the database; the periodic ``sweep`` finds what is due and queues these.
Which queue each goes to: ``games.queue``."""

from __future__ import annotations

import time

from celery import shared_task
from django.conf import settings

from games import notifications
from games.actions import bot_must_act, play_bot_move, play_timeout_move
from games.actions.deadlines import due
from games.actions.turns import bot_levels, bots_task
from games.models import Game
from games.queue import publish

# A game has at most 10 rounds of at most 85 moves; a bound keeps a bug from looping forever.
MAX_BOT_MOVES = 1000


def _repeat(move, game_id: int, version: int, pause: float = 0.0) -> tuple[int, int]:
    """Make ``move(game_id, version)`` until it has nothing to do, ``pause`` seconds apart:
    (moves made, last version)."""
    moves = 0
    while moves < MAX_BOT_MOVES:
        next_version = move(game_id, version)
        if next_version is None:
            break
        version = next_version
        moves += 1
        # Only between two bot moves: after the last one the worker is free for other tables.
        if pause and bot_must_act(game_id, version):
            time.sleep(pause)
    return moves, version


@shared_task(ignore_result=True)
def play_bots(game_id: int, version: int) -> int:
    """Play every bot move that is due, one action (and transaction, and pushed version) per
    move, until a person must act or the game ends: the bots of a table answer one after
    another in this task, ``BOT_PAUSE_SECONDS`` apart so that a person can follow the cards.
    Returns how many moves the bots made."""
    return _repeat(play_bot_move, game_id, version, settings.BOT_PAUSE_SECONDS)[0]


@shared_task(ignore_result=True)
def play_timeouts(game_id: int, version: int) -> int:
    """The stand-in's moves for the seats of a game whose time ran out, then the bot turns that
    follow, in this task: what the sweep finds stays on its own queue, behind no player's bot
    reply and in front of none."""
    timeouts, version = _repeat(play_timeout_move, game_id, version)
    if not timeouts:
        return 0
    game = Game.objects.filter(pk=game_id).first()
    task, queue = bots_task(bot_levels(game).values() if game else ())
    if queue == "think":  # an Expert's table: its bot turns take seconds each, on their queue
        if bot_must_act(game_id, version):
            publish(task, game_id, version, queue=queue)
        return timeouts
    return timeouts + _repeat(play_bot_move, game_id, version, settings.BOT_PAUSE_SECONDS)[0]


@shared_task(ignore_result=True)
def think(game_id: int, version: int) -> int:
    """``play_bots`` for a table with an Expert (correspondence only), whose moves take seconds
    each: on its own queue and workers (``think``), so that it never delays a live table's bot
    reply nor a timeout (``games.actions.turns.bots_task``). Returns how many moves the bots
    made. The Expert chooses before it locks the game (``play_bot_move``'s ``think_first``)."""
    return _repeat(_think_first, game_id, version, settings.BOT_PAUSE_SECONDS)[0]


def _think_first(game_id: int, version: int) -> int | None:
    return play_bot_move(game_id, version, think_first=True)


# The time limit ends a send stuck past every SMTP timeout well before the outbox's claim on
# the email (notifications.CLAIM) runs out; retries are the outbox's (due_at), not Celery's.
@shared_task(ignore_result=True, time_limit=120)
def send_email(pending_id: int) -> bool:
    """One email of the outbox; nothing when it went already or is being sent."""
    return notifications.deliver(pending_id)


@shared_task(ignore_result=True)
def sweep() -> dict:
    """Every minute: queue what is due (timeouts, stalled bot turns, emails)."""
    return due()
