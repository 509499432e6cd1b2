"""The notifications: the outbox (``PendingEmail``) and the record of what was sent
(``SentEmail``). Each row is an email, or, with its ``device``, a push message to one of the
player's browsers: the same machinery sends each once."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class PendingEmail(models.Model):
    """The outbox: an email decided on (by an action, or by the sweep), written in the same
    transaction as the change that calls for it, and deleted once it is sent or given up.

    A task (``games.tasks.send_email``) sends it after commit; the sweep queues again one whose
    task was lost (``queued_at`` long past) or that is due for another attempt after a failure
    (``due_at``). Whoever sends it first claims it until ``claimed_until``, longer than a send
    can take, so two workers never send it at once.
    """

    kind = models.CharField(max_length=20)
    args = models.JSONField()  # what games.notifications.compose needs for this kind
    # A push message to this browser, not an email (its row goes with the browser).
    device = models.ForeignKey(
        "accounts.PushDevice", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(db_index=True)
    due_at = models.DateTimeField(db_index=True)  # the next attempt, not before
    queued_at = models.DateTimeField(null=True, blank=True)  # a task was queued for it then
    claimed_until = models.DateTimeField(null=True, blank=True)  # a worker is sending it
    attempts = models.PositiveSmallIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.kind} {self.args} ({self.created_at:%Y-%m-%d %H:%M})"


class SentEmail(models.Model):
    """Every email handed to the mail server, by kind and a key naming what it was about:
    sending it again for the same key does nothing, so tasks that run twice send nothing twice.

    Written before talking to the server (``SENDING``), then ``SENT`` once the server said it
    took the message, or ``UNKNOWN`` when it never answered: such an email may or may not have
    arrived, is not sent again by itself, and is listed in the admin, whose action sends it
    again (games.notifications)."""

    class Fate(models.TextChoices):
        SENDING = "sending", _("being sent")
        SENT = "sent", _("sent")
        UNKNOWN = "unknown", _("unknown: the mail server did not answer")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="sent_emails",
        verbose_name=_("recipient"),
    )
    kind = models.CharField(_("kind"), max_length=20)
    key = models.CharField(_("occasion"), max_length=100)
    # A push message to this browser (None: an email): each browser gets one per occasion.
    device = models.ForeignKey(
        "accounts.PushDevice",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("browser"),
    )
    sent_at = models.DateTimeField(_("sent at"))
    fate = models.CharField(_("fate"), max_length=8, choices=Fate, default=Fate.SENT)
    # The outbox's arguments (PendingEmail.args), to write the email again; none on the
    # records from before they were kept.
    args = models.JSONField(null=True, blank=True)

    class Meta:
        verbose_name = _("sent email")
        verbose_name_plural = _("sent emails")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "key"], condition=Q(device=None), name="email_once"
            ),
            models.UniqueConstraint(
                fields=["device", "kind", "key"], condition=~Q(device=None), name="push_once"
            ),
        ]
        indexes = [
            # The health check counts them at every call: a few rows in an index, not a scan
            # of every email ever sent.
            models.Index(fields=["fate"], condition=Q(fate="unknown"), name="email_fate_unknown"),
            # the sweep looks for sends whose worker stopped midway (``settle_lost_sends``)
            models.Index(
                fields=["sent_at"], condition=Q(fate="sending"), name="email_fate_sending"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user} ({self.key})"
