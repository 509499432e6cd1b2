"""The table chat as a seated person reads it: only the people seated at a game read and write
its chat (spectators have none)."""

from __future__ import annotations

from games.models import CHAT_MAX_LENGTH, ChatMessage
from games.selectors.seats import Viewer, position_of

CHAT_LINES = 100  # the latest messages a table's chat shows


def chat_seated(user: Viewer, game_id: int) -> bool:
    """A person (not a bot, nor a bot account) seated at the game: the only readers and writers
    of its chat."""
    return (
        user.is_authenticated and not user.plays_as_bot and position_of(game_id, user) is not None
    )


def table_chat(game_id: int, user: Viewer, seated: bool | None = None) -> dict[str, object] | None:
    """The table chat as ``user`` reads it: None for anyone not seated at the game (spectators
    have no chat, see the README); for a player who hid the chat, only that. One query for the
    lines (and one to find the seat, unless the page knows ``seated``)."""
    if seated is None:
        seated = chat_seated(user, game_id)
    if not seated or user.plays_as_bot:
        return None
    if user.chat_hidden:
        return {"game_id": game_id, "hidden": True, "last": 0}
    lines = list(
        ChatMessage.objects.filter(game_id=game_id, hidden=False)
        .select_related("user")
        .order_by("-pk")[:CHAT_LINES]
    )
    lines.reverse()
    return {
        "game_id": game_id,
        "hidden": False,
        "lines": lines,
        "last": lines[-1].pk if lines else 0,
        "barred": user.chat_barred,
        "max_length": CHAT_MAX_LENGTH,
    }


def chat_news(game_id: int, after: int) -> bool:
    """A message to show newer than ``after``."""
    return ChatMessage.objects.filter(game_id=game_id, pk__gt=after, hidden=False).exists()
