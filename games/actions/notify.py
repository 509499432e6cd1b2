"""Emails that a game change sends, queued once the change has committed."""

from __future__ import annotations

from django.db import transaction


def notify_on_commit(kind: str, game, position: int, key: str) -> None:
    """Email the player in seat ``position`` about ``game`` (see games.notifications), after
    commit; ``key`` names the occasion so that the same email is never sent twice."""
    from games.tasks import send_game_email

    game_id = game.pk
    transaction.on_commit(lambda: send_game_email.delay(kind, game_id, position, key), robust=True)


def notify_people_on_commit(kind: str, game, key: str, skip_user_id: int | None = None) -> None:
    """The same email to every person seated in ``game`` (bots get none)."""
    for position, user_id in game.seats.filter(user__bot_level="", user__isnull=False).values_list(
        "position", "user_id"
    ):
        if user_id != skip_user_id:
            notify_on_commit(kind, game, position, key)
