"""The outbox's one writer. Emails that a change calls for are written to the outbox
(``PendingEmail``) in the change's own transaction and handed to a task once it has committed:
an email is never lost because the broker was down (the sweep queues it again), and never sent
for a change that rolled back. The task sends each (``deliver``) and records it (``SentEmail``);
what an email says, and whether it still makes sense, is ``games.notifications``'.

An occasion the player also takes as a push message is, when its email is first handled, one
more outbox row for each of their browsers (``PendingEmail.device``), sent and recorded the same
way, once per browser (``games.push``). A turn's email then waits (``PUSH_FIRST``), and goes
only if the player has not come to the site since the message reached them."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import IntegrityError, transaction
from django.db.models import F, Q

from accounts.models import PushDevice, User
from games import clock, live, notifications, push
from games.models import PendingEmail, SentEmail
from games.notifications import TURN_KINDS
from games.queue import publish_on_commit

SEND_TASK = "games.tasks.send_email"

log = logging.getLogger(__name__)


def queue_emails(emails: Iterable[tuple[str, list]], now=None, device_id=None) -> int:
    """Write each ``(kind, args)`` (see ``games.notifications.compose``) to the outbox and send
    it after commit; how many. With ``device_id``: push messages to that browser."""
    now = now or clock.now()
    created = PendingEmail.objects.bulk_create(
        [
            PendingEmail(
                kind=kind,
                args=args,
                device_id=device_id,
                created_at=now,
                due_at=now,
                queued_at=now,
            )
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
                queue_emails([(record.kind, record.args)], device_id=record.device_id)
                log.info(
                    "the %s email to %s (%s) is sent again", record.kind, record.user, record.key
                )
                queued += 1
    return queued


def deliver(pending_id: int, now=None) -> bool:
    """Send one outbox email, or push message (a row with a ``device``; see
    ``games.notifications``' docstring); whether it was sent. Safe to call twice, at once or
    late: the claim and the ``SentEmail`` record keep it to one. What happens to an email is
    logged on ``games.notifications``' logger, with its writing."""
    now = now or clock.now()
    claimed = (
        PendingEmail.objects.filter(pk=pending_id, due_at__lte=now)
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lte=now))
        .update(claimed_until=now + notifications.CLAIM, attempts=F("attempts") + 1)
    )
    if not claimed:
        return False  # sent, being sent, or not due yet
    pending = PendingEmail.objects.select_related("device").get(pk=pending_id)
    try:
        composed = notifications.compose(pending.kind, pending.args, now)
        if composed is None:
            pending.delete()
            return False
        user, kind, key, context = composed
        if pending.device is not None:
            return _push(pending, user, kind, key, context, now)
        if pending.attempts == 1 and _queue_pushes(pending, user, kind, key, now):
            if kind in TURN_KINDS and notifications.wants(user, kind) and not user.email_with_push:
                _retry_later(pending, now, after=notifications.PUSH_FIRST)
                return False
        if not notifications.wants(user, kind) or _push_was_read(user, kind, key):
            pending.delete()
            return False
        message = notifications.render(user, kind, context)
    except Exception:
        notifications.log.exception("could not write the email %s", pending)
        _retry_later(pending, now)
        return False
    record = _record(pending, user, kind, key, now)
    if record is None:
        return False  # sent already, for this occasion
    delivery = notifications.transmit(message)
    return _settle(pending, record, delivery.name, now)


def _record(pending: PendingEmail, user: User, kind: str, key: str, now) -> SentEmail | None:
    """The record of a send about to start, committed before it does (a retry after a timeout
    finds it); None, and the outbox row gone, when the occasion was sent already."""
    try:
        with transaction.atomic():
            return SentEmail.objects.create(
                user=user,
                kind=kind,
                key=key,
                device=pending.device,
                sent_at=now,
                fate=SentEmail.Fate.SENDING,
                args=pending.args,
            )
    except IntegrityError:
        same = {"device": pending.device} if pending.device else {"user": user, "device": None}
        settle_lost_sends(now, kind=kind, key=key, **same)
        pending.delete()
        return None


def _settle(pending: PendingEmail, record: SentEmail, delivery: str, now) -> bool:
    """Record what became of a send (a ``Delivery``'s name, the mail server's or the push
    service's); whether it was sent."""
    if delivery == "NOT_SENT":
        record.delete()
        _retry_later(pending, now)
        return False
    fate = SentEmail.Fate.SENT if delivery == "SENT" else SentEmail.Fate.UNKNOWN
    SentEmail.objects.filter(pk=record.pk).update(fate=fate)
    pending.delete()
    return delivery == "SENT"


def _queue_pushes(pending: PendingEmail, user: User, kind: str, key: str, now) -> int:
    """One outbox row for each of ``user``'s browsers that has not had this occasion's message,
    if they take this kind as a push message; how many."""
    if not notifications.wants_push(user, kind):
        return 0
    had = SentEmail.objects.filter(kind=kind, key=key, device__isnull=False).values("device")
    devices = list(
        PushDevice.objects.filter(user=user).exclude(pk__in=had).values_list("pk", flat=True)
    )
    for device in devices:
        queue_emails([(pending.kind, pending.args)], now, device_id=device)
    return len(devices)


def _push(pending: PendingEmail, user: User, kind: str, key: str, context: dict, now) -> bool:
    """Send one push message (``deliver``'s, for an outbox row with a browser)."""
    device = pending.device
    game = context.get("game")
    watching = (
        kind not in TURN_KINDS | {"invitation"}
        and game is not None
        and user.pk in live.watchers.users(game.pk)
    )
    if device.user_id != user.pk or not notifications.wants_push(user, kind) or watching:
        pending.delete()  # another player's browser now, turned off, or the game is in view
        return False
    message = notifications.push_message(user, kind, context)
    record = _record(pending, user, kind, key, now)
    if record is None:
        return False
    urgency = notifications.PUSH_URGENCY.get(kind, "normal")
    topic = message["tag"].replace("-", "")  # a newer one about the same game replaces it
    delivery = push.send(device, message, ttl=notifications.PUSH_TTL, urgency=urgency, topic=topic)
    if delivery is push.Delivery.GONE:
        return False  # the browser dropped it: its rows went with it
    return _settle(pending, record, delivery.name, now)


def _push_was_read(user: User, kind: str, key: str) -> bool:
    """Whether a push message about this turn reached one of the player's browsers, and they
    came to the site after it: the email would tell them nothing new."""
    if kind not in TURN_KINDS or user.email_with_push or user.last_seen is None:
        return False
    return SentEmail.objects.filter(
        user=user,
        kind=kind,
        key=key,
        device__isnull=False,
        fate=SentEmail.Fate.SENT,
        sent_at__lte=user.last_seen,
    ).exists()


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


def _retry_later(pending: PendingEmail, now, after=None) -> None:
    """Back to the outbox, for the sweep to queue again ``after`` (by default, the next of
    ``RETRY_AFTER``; after the last, given up)."""
    if after is None and pending.attempts > len(notifications.RETRY_AFTER):
        notifications.log.error(
            "gave up on the email %s after %d attempts", pending, pending.attempts
        )
        pending.delete()
        return
    pending.due_at = now + (after or notifications.RETRY_AFTER[pending.attempts - 1])
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
