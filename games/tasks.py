"""Celery tasks. Each takes ids (and the version it expects, where a game changes), is safe to
run twice and safe to run late: it does nothing when the game has moved on. Deadlines live in
the database; the periodic ``sweep`` finds what is due."""

from __future__ import annotations

from celery import shared_task

from games import notifications
from games.actions import play_bot_move, play_timeout_move
from games.actions.deadlines import due

# A game has at most 10 rounds of at most 85 moves; a bound keeps a bug from looping forever.
MAX_BOT_MOVES = 1000


@shared_task(ignore_result=True)
def play_bots(game_id: int, version: int) -> int:
    """Play every bot move that is due, one action (and transaction) per move, until a person
    must act or the game ends. Returns how many moves the bots made."""
    moves = 0
    while moves < MAX_BOT_MOVES:
        next_version = play_bot_move(game_id, version)
        if next_version is None:
            break
        version = next_version
        moves += 1
    return moves


@shared_task(ignore_result=True)
def play_timeouts(game_id: int, version: int) -> int:
    """The stand-in's moves for the seats of a game whose time ran out, then any bot turns."""
    moves = 0
    while moves < MAX_BOT_MOVES:
        next_version = play_timeout_move(game_id, version)
        if next_version is None:
            break
        version = next_version
        moves += 1
    return moves


@shared_task(ignore_result=True, autoretry_for=(OSError,), retry_backoff=True, max_retries=5)
def send_email(pending_id: int) -> bool:
    """An email an action queued (a ``PendingEmail``); nothing when it went already."""
    return notifications.send_pending(pending_id)


@shared_task(ignore_result=True)
def sweep() -> dict:
    """Every minute: queue what is due (timeouts, stalled bot turns), and send reminders,
    "your turn" emails and vacation notices."""
    return due()


@shared_task(ignore_result=True)
def daily_digest() -> int:
    from games.actions.deadlines import send_digests

    return send_digests()
