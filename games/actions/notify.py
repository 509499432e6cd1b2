"""The outbox's one writer. Emails that a change calls for are written to the outbox
(``PendingEmail``) in the change's own transaction and handed to a task once it has committed:
an email is never lost because the broker was down (the sweep queues it again), and never sent
for a change that rolled back. The task sends each (``deliver``) and records it (``SentEmail``);
what an email says, and whether it still makes sense, is ``games.notifications``'."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import IntegrityError, transaction
from django.db.models import F, Q

from accounts.models import User
from games import clock, notifications
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
    """The same email to every person seated in ``game`` (bots get none; a tutorial's player,
    on its page, gets none either)."""
    if game.tutorial:
        return
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


def deliver(pending_id: int, now=None) -> bool:
    """Send one outbox email (see ``games.notifications``' docstring); whether it was sent. Safe
    to call twice, at once or late: the claim and the ``SentEmail`` record keep it to one. What
    happens to an email is logged on ``games.notifications``' logger, with its writing."""
    now = now or clock.now()
    claimed = (
        PendingEmail.objects.filter(pk=pending_id, due_at__lte=now)
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lte=now))
        .update(claimed_until=now + notifications.CLAIM, attempts=F("attempts") + 1)
    )
    if not claimed:
        return False  # sent, being sent, or not due yet
    pending = PendingEmail.objects.get(pk=pending_id)
    try:
        composed = notifications.compose(pending.kind, pending.args, now)
        if composed is None or not notifications.wants(composed[0], composed[1]):
            pending.delete()
            return False
        user, kind, key, context = composed
        message = notifications.render(user, kind, context)
    except Exception:
        notifications.log.exception("could not write the email %s", pending)
        _retry_later(pending, now)
        return False
    try:
        with transaction.atomic():
            record = SentEmail.objects.create(
                user=user,
                kind=kind,
                key=key,
                sent_at=now,
                fate=SentEmail.Fate.SENDING,
                args=pending.args,
            )
    except IntegrityError:
        settle_lost_sends(now, user=user, kind=kind, key=key)
        pending.delete()
        return False  # sent already, for this occasion
    delivery = notifications.transmit(message)
    if delivery is notifications.Delivery.NOT_SENT:
        record.delete()
        _retry_later(pending, now)
        return False
    fate = (
        SentEmail.Fate.SENT if delivery is notifications.Delivery.SENT else SentEmail.Fate.UNKNOWN
    )
    SentEmail.objects.filter(pk=record.pk).update(fate=fate)
    pending.delete()
    return delivery is notifications.Delivery.SENT


def settle_lost_sends(now, **which) -> int:
    """Emails still being sent a claim's length after they started (their worker died, or the
    task's time limit ended it, while it talked to the server): of unknown fate. The sweep
    looks for them all; a retry of the same occasion for its own (``which``). How many."""
    lost = list(
        SentEmail.objects.filter(
            fate=SentEmail.Fate.SENDING, sent_at__lte=now - notifications.CLAIM, **which
        ).values_list("pk", "kind", "user__email", "key")
    )
    SentEmail.objects.filter(pk__in=[row[0] for row in lost]).update(fate=SentEmail.Fate.UNKNOWN)
    for _, kind, email, key in lost:
        notifications.log.error(
            "the %s email to %s (%s) was being sent when its worker stopped: its fate is "
            "unknown, it is not sent again (the admin's sent emails list it)",
            kind,
            email,
            key,
        )
    return len(lost)


def _retry_later(pending: PendingEmail, now) -> None:
    if pending.attempts > len(notifications.RETRY_AFTER):
        notifications.log.error(
            "gave up on the email %s after %d attempts", pending, pending.attempts
        )
        pending.delete()
        return
    pending.due_at = now + notifications.RETRY_AFTER[pending.attempts - 1]
    pending.claimed_until = None
    pending.queued_at = None
    pending.save(update_fields=["due_at", "claimed_until", "queued_at"])


def unsubscriber(user_id: int) -> User:
    """The person an unsubscribe link names; ``User.DoesNotExist`` when there is none."""
    return User.objects.get(pk=user_id)


def unsubscribe(user: User, preference: str) -> None:
    """Turn off the kind of email ``preference`` (a ``notifications.PREFERENCES`` field) for
    ``user``, from an email's link: the turn emails to never, the others to off."""
    value = User.TurnEmail.NEVER if preference == "email_turn" else False
    User.objects.filter(pk=user.pk).update(**{preference: value})
