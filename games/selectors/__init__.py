"""Reads for pages: each fetches what its page needs in a fixed, small number of queries.

Pages get ``view(state, seat)`` and names, never the stored state: the seed and the other
hands stay on the server. The one exception is the replay of a finished game, where nothing is
secret any more. What the table shows is worked out from the view in ``games.table``.

The reads live by what they read for:

- ``seats``: the seats as pages show them, who may see a game, and the one look-up of a user's
  seat;
- ``table_page``: the game page (the table, this round's moves, the round that ended last);
- ``replay``: a step of the game page, the move log and the replay of a finished game;
- ``ending``: the result, the final ranking with the ratings, and the rematch;
- ``listings``: the lobby and the games in play;
- ``chat``: the table chat.

This package re-exports the names its callers use (``selectors.game_page``, ...), so that the
old import path keeps working for them; everything else is imported from its module. A setting
such as ``LOBBY_FINISHED`` is read where it lives (``selectors.listings``): a test that changes
it patches it there.
"""

from games.selectors.chat import chat_news, chat_seated, table_chat
from games.selectors.listings import (
    IN_PLAY_PAGE_SIZE,
    LOBBY_OPEN_TABLES,
    games_in_play,
    lobby,
    open_tables,
)
from games.selectors.replay import NoSuchStep, game_step, move_log_page, replay_page
from games.selectors.seats import can_view, position_of, seat_of, visible_games, with_seats
from games.selectors.table_page import game_page, table_context

__all__ = [
    "IN_PLAY_PAGE_SIZE",
    "LOBBY_OPEN_TABLES",
    "NoSuchStep",
    "can_view",
    "chat_news",
    "chat_seated",
    "game_page",
    "game_step",
    "games_in_play",
    "lobby",
    "move_log_page",
    "open_tables",
    "position_of",
    "replay_page",
    "seat_of",
    "table_chat",
    "table_context",
    "visible_games",
    "with_seats",
]
