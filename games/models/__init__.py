"""The records of a game of Nyet!, one module per part, every name re-exported here so that
``from games.models import Game`` (and Django's app registry) finds them all:

- ``game``: ``Game`` and its ``Seat``s, with what a table offers (``CHARACTERS``,
  ``offers_bot_level``);
- ``records``: the ``MoveRecord`` log and the projections written from it (``Round``,
  ``RoundSeat``, ``BoardToken``, ``Trick``, ``Play``);
- ``invitations``: ``Invitation`` and ``RematchOffer``;
- ``chat``: ``ChatMessage`` and ``ChatReport``;
- ``vacations``: ``Vacation``;
- ``emails``: the outbox (``PendingEmail``) and what was sent (``SentEmail``).

The seed and the append-only ``MoveRecord`` log are the source of truth: replaying them through
the engine rebuilds ``Game.state``, and ``manage.py check_records`` / ``rebuild_records``
compare the projections with, or write them again from, that replay.
Models hold data and constraints only; every change goes through ``games.actions``.
"""

from .chat import CHAT_MAX_LENGTH, ChatMessage, ChatReport
from .emails import PendingEmail, SentEmail
from .game import (
    CHARACTERS,
    THINKING_BOT_LEVELS,
    Game,
    Seat,
    before_first_card,
    offers_bot_level,
)
from .invitations import Invitation, RematchOffer
from .records import BoardToken, MoveRecord, Play, Round, RoundSeat, Trick
from .vacations import Vacation

__all__ = [
    "CHARACTERS",
    "CHAT_MAX_LENGTH",
    "THINKING_BOT_LEVELS",
    "BoardToken",
    "ChatMessage",
    "ChatReport",
    "Game",
    "Invitation",
    "MoveRecord",
    "PendingEmail",
    "Play",
    "RematchOffer",
    "Round",
    "RoundSeat",
    "Seat",
    "SentEmail",
    "Trick",
    "Vacation",
    "before_first_card",
    "offers_bot_level",
]
