"""Asking people to a table: an ``Invitation`` to an open table, and a ``RematchOffer`` at the
end of a finished one. Both are answered through ``games.actions`` and keep their answer."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .game import Game


class Invitation(models.Model):
    """A player asked to a table by someone at it. The invitee may watch the game even when it is
    private; the inviter's invitations of the last day are what the daily limits count, answered
    or not. While it is pending (and the table open) it is the invitee's right to a seat, even at
    a private table; the invitee accepts (sits) or declines it, the inviter may cancel it
    (``actions.invitations``): the row stays, with its answer."""

    class Answer(models.TextChoices):
        PENDING = "pending", _("waiting for an answer")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        CANCELLED = "cancelled", _("cancelled")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations"
    )
    inviter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField()
    answer = models.CharField(max_length=9, choices=Answer, default=Answer.PENDING)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["inviter", "created_at"], name="invitation_by_inviter"),
            models.Index(fields=["game", "invitee"], name="invitation_to_game"),
        ]

    def __str__(self) -> str:
        return f"{self.invitee} to {self.game}"


class RematchOffer(models.Model):
    """A rematch asked for at the end of a finished game, as on lichess: every other person
    of that table (``Seat``s of people, bots aside) accepts or declines on the game's page; the
    new game starts with the same seats once all have accepted (the bots keep theirs), or the
    offer ends: declined, cancelled by someone who had accepted, or expired (the live tick and
    the sweep find ``expires_at``, ``actions.deadlines``). Changed only with the finished game's
    row locked (``actions.rematches``): one open offer per game at a time."""

    class Outcome(models.TextChoices):
        OPEN = "open", _("waiting for answers")
        ACCEPTED = "accepted", _("accepted: the rematch started")
        DECLINED = "declined", _("declined")
        CANCELLED = "cancelled", _("cancelled")
        EXPIRED = "expired", _("expired")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rematch_offers")
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    asked_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    # The ids of the people who said yes, the one who asked first.
    accepted = models.JSONField(default=list)
    outcome = models.CharField(max_length=9, choices=Outcome, default=Outcome.OPEN)
    ended_at = models.DateTimeField(null=True, blank=True)
    # Who declined or cancelled it (None when it expired, or was accepted by everyone).
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    new_game = models.OneToOneField(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game"], condition=Q(outcome="open"), name="rematch_offer_open_once"
            ),
        ]
        indexes = [  # the tick's look for the offers that expire, among every offer ever made
            models.Index(
                fields=["expires_at"], condition=Q(outcome="open"), name="rematch_offer_due"
            ),
        ]

    def __str__(self) -> str:
        return f"rematch of {self.game} ({self.outcome})"
