"""The one write path: every change to a game goes through these functions.

Views, Celery tasks, the admin and management commands call them; nothing else writes game
records. Each public action validates untrusted input, locks what it changes (most often the
game row), writes, and queues side effects with ``transaction.on_commit`` (a move's steps by
name: ``moves.check_move``, then ``moves.do_move``). A refusal raises ``ActionError`` with a
message for the player and changes nothing. The modules: ``lobby`` (tables before play),
``invitations``, ``rematches``, ``moves`` and ``turns`` (play), ``records`` (the records written
from each move), ``deadlines`` (what the live tick and the sweep find due), ``vacations``,
``chat``, ``notify`` (the email outbox), ``tutorial``.
"""

from .chat import bar_from_chat, hide_chat, post_chat, report_chat
from .errors import ActionError, StaleVersion
from .invitations import accept_invitation, cancel_invitation, decline_invitation, invite_player
from .lobby import (
    add_bot,
    become_bot_account,
    create_game,
    join_game,
    leave_game,
    play_against_bots,
    release_seats,
    remove_bot,
    seat_bot_account,
    start_game,
)
from .moves import (
    abort_game,
    come_back,
    play_bot_move,
    play_due_timeouts,
    play_timeout_move,
    queue_bot_turns,
    resign,
    submit_move,
)
from .rematches import accept_rematch, decline_rematch, rematch
from .vacations import end_vacation, start_vacation

__all__ = [
    "ActionError",
    "accept_invitation",
    "accept_rematch",
    "cancel_invitation",
    "decline_invitation",
    "decline_rematch",
    "abort_game",
    "StaleVersion",
    "add_bot",
    "become_bot_account",
    "seat_bot_account",
    "bar_from_chat",
    "hide_chat",
    "post_chat",
    "report_chat",
    "come_back",
    "create_game",
    "end_vacation",
    "invite_player",
    "join_game",
    "leave_game",
    "play_against_bots",
    "play_bot_move",
    "play_due_timeouts",
    "play_timeout_move",
    "queue_bot_turns",
    "release_seats",
    "rematch",
    "remove_bot",
    "resign",
    "start_game",
    "start_vacation",
    "submit_move",
]
