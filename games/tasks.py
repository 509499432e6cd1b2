"""Celery tasks. Each takes ids and the version it expects, and is safe to run twice or late:
it does nothing when the game has moved on."""

from __future__ import annotations

from celery import shared_task

from games.actions import play_bot_move

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
