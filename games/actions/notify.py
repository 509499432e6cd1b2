"""Emails that a game change sends, queued once the change has committed.

Each is first written down (``PendingEmail``) in the change's transaction, so that it is not
lost when the broker is down: the sweep sends what no task did."""

from __future__ import annotations

from django.db import transaction

from games import clock
from games.models import PendingEmail


def email_on_commit(kind: str, args: list) -> None:
    """Send ``kind`` (see games.notifications.send_pending) after commit."""
    from games.tasks import send_email

    pending = PendingEmail.objects.create(kind=kind, args=args, created_at=clock.now())
    transaction.on_commit(lambda: send_email.delay(pending.pk), robust=True)


def notify_on_commit(kind: str, game, position: int, key: str) -> None:
    """Email the player in seat ``position`` about ``game`` (see games.notifications), after
    commit; ``key`` names the occasion so that the same email is never sent twice."""
    email_on_commit(kind, [game.pk, position, key])


def notify_people_on_commit(kind: str, game, key: str, skip_user_id: int | None = None) -> None:
    """The same email to every person seated in ``game`` (bots get none)."""
    for position, user_id in game.seats.filter(user__bot_level="", user__isnull=False).values_list(
        "position", "user_id"
    ):
        if user_id != skip_user_id:
            notify_on_commit(kind, game, position, key)
