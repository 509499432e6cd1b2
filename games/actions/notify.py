"""Emails that a change calls for, written to the outbox (``PendingEmail``) in the change's own
transaction and handed to a task once it has committed: an email is never lost because the
broker was down (the sweep queues it again), and never sent for a change that rolled back."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import transaction

from games import clock
from games.models import PendingEmail, SentEmail
from games.queue import publish_on_commit

SEND_TASK = "games.tasks.send_email"

log = logging.getLogger(__name__)


def queue_emails(emails: Iterable[tuple[str, list]], now=None) -> int:
    """Write each ``(kind, args)`` (see ``games.notifications.compose``) to the outbox and send
    it after commit; how many."""
    now = now or clock.now()
    created = PendingEmail.objects.bulk_create(
        [
            PendingEmail(kind=kind, args=args, created_at=now, due_at=now, queued_at=now)
            for kind, args in emails
        ]
    )
    for pending in created:
        publish_on_commit(SEND_TASK, pending.pk, queue="email")
    return len(created)


def email_on_commit(kind: str, args: list) -> None:
    queue_emails([(kind, args)])


def notify_on_commit(kind: str, game, position: int, key: str) -> None:
    """Email the player in seat ``position`` about ``game`` (see games.notifications), after
    commit; ``key`` names the occasion so that the same email is never sent twice."""
    email_on_commit(kind, [game.pk, position, key])


def notify_people_on_commit(kind: str, game, key: str, skip_user_id: int | None = None) -> None:
    """The same email to every person seated in ``game`` (bots get none)."""
    seats = game.seats.filter(user__bot_level="", user__isnull=False).values_list(
        "position", "user_id"
    )
    queue_emails(
        (kind, [game.pk, position, key]) for position, user_id in seats if user_id != skip_user_id
    )


def resend(records) -> int:
    """Send again the emails of unknown fate among ``records`` (``SentEmail``), for staff who
    judged a duplicate better than a lost email; how many were queued. Each goes through the
    outbox as a new email: written again and sent only if it still makes sense (no "your turn"
    for a turn that is over), and recorded anew. Its old record goes, so that the occasion is
    free for it; deleting it first keeps two clicks at once to one email."""
    queued = 0
    with transaction.atomic():
        unknown = records.filter(fate=SentEmail.Fate.UNKNOWN, args__isnull=False)
        for record in unknown.select_related("user").order_by("pk"):
            deleted, _ = SentEmail.objects.filter(
                pk=record.pk, fate=SentEmail.Fate.UNKNOWN
            ).delete()
            if deleted:
                queue_emails([(record.kind, record.args)])
                log.info(
                    "the %s email to %s (%s) is sent again", record.kind, record.user, record.key
                )
                queued += 1
    return queued
